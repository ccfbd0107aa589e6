import { ScratchpadError } from '../../core/errors.js';

/** One page of a list the proxy merges from the scratchpad's items and the upstream's. */
export interface Page<T> {
  items: T[];
  nextCursor?: string | undefined;
  /**
   * Names the state of a list that is served from memory (the upstream's tools as last fetched): a cursor made
   * for another version is refused, since its position means nothing in the new list.
   */
  version?: string | undefined;
  /**
   * Makes an item what the client sees (redacts it), called only for the items a page measures: a source of
   * 50,000 items costs per page served, not per page fetched.
   */
  prepare?: ((item: T) => Promise<T>) | undefined;
}

/** Fetches one page of one side of a merged list. */
export type PageSource<T> = (cursor: string | undefined) => Promise<Page<T>>;

/** What a merged page answers, and what it had to leave out. */
export interface MergedPage<T> extends Page<T> {
  /** Items larger than a whole reply on their own: left out (the caller says so in its log). */
  tooLarge: T[];
}

type Position = { source: number; cursor?: string; skip?: number; version?: string };

/**
 * Pages through several sources in order (the scratchpad's items, then the upstream's) behind one opaque cursor,
 * each page at most `budget` bytes of JSON items: a source's page larger than that is split (the cursor keeps
 * the source's own cursor and how many of its items were sent), and when a source ends, the next one's first
 * page fills the rest of the answer. So no list answer exceeds the reply limit, however large the upstream's
 * pages are, and the first source's items (the proxy's own) come first.
 */
export async function mergedPage<T>(
  cursor: string | undefined,
  sources: ReadonlyArray<PageSource<T> | undefined>,
  budget: number,
): Promise<MergedPage<T>> {
  let position: Position = cursor === undefined ? { source: 0 } : decode(cursor, sources.length);
  const items: T[] = [];
  const tooLarge: T[] = [];
  let used = 0;
  while (position.source < sources.length) {
    const source = sources[position.source];
    if (!source) {
      position = { source: position.source + 1 };
      continue;
    }
    const page = await source(position.cursor);
    if (position.version !== undefined && page.version !== position.version) throw staleCursor();
    for (let index = position.skip ?? 0; index < page.items.length; index++) {
      const item = page.prepare ? await page.prepare(page.items[index] as T) : (page.items[index] as T);
      const size = Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
      if (size > budget) {
        tooLarge.push(item);
        continue;
      }
      if (used + size > budget) {
        const next: Position = { source: position.source, skip: index };
        if (position.cursor !== undefined) next.cursor = position.cursor;
        if (page.version !== undefined) next.version = page.version;
        return { items, tooLarge, nextCursor: encode(next) };
      }
      items.push(item);
      used += size;
    }
    if (page.nextCursor !== undefined)
      return { items, tooLarge, nextCursor: encode({ source: position.source, cursor: page.nextCursor }) };
    position = { source: position.source + 1 };
  }
  return { items, tooLarge };
}

function encode(position: Position): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

function decode(cursor: string, sources: number): Position {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Position;
    if (
      Number.isInteger(value.source) &&
      value.source >= 0 &&
      value.source < sources &&
      (value.cursor === undefined || typeof value.cursor === 'string') &&
      (value.skip === undefined || (Number.isInteger(value.skip) && value.skip >= 0)) &&
      (value.version === undefined || typeof value.version === 'string')
    )
      return value;
  } catch {
    // reported below
  }
  throw new ScratchpadError('INVALID_ARGUMENT', 'Invalid list cursor.', {
    hint: 'Pass the nextCursor of the previous page unchanged, or list again without a cursor.',
  });
}

function staleCursor(): ScratchpadError {
  return new ScratchpadError(
    'INVALID_ARGUMENT',
    'The list changed since this cursor was made (a list_changed notification was sent); its position no longer holds.',
    { hint: 'List again from the first page, without a cursor.' },
  );
}
