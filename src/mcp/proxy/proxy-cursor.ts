import { ScratchpadError } from '../../core/errors.js';

/** One page of a list the proxy merges from the scratchpad's items and the upstream's. */
export interface Page<T> {
  items: T[];
  nextCursor?: string | undefined;
}

type Position = { source: 'scratchpad' | 'upstream'; cursor?: string };

/**
 * Pages through the scratchpad's items, then the upstream's, behind one opaque cursor (each side keeps its own
 * cursor inside). When the scratchpad's side ends, the upstream's first page follows in the same answer.
 */
export async function mergedPage<T>(
  cursor: string | undefined,
  ours: (cursor: string | undefined) => Promise<Page<T>>,
  theirs: ((cursor: string | undefined) => Promise<Page<T>>) | undefined,
): Promise<Page<T>> {
  const position = cursor === undefined ? { source: 'scratchpad' as const } : decode(cursor);
  const items: T[] = [];
  if (position.source === 'scratchpad') {
    const page = await ours(position.cursor);
    items.push(...page.items);
    if (page.nextCursor !== undefined)
      return { items, nextCursor: encode({ source: 'scratchpad', cursor: page.nextCursor }) };
    if (!theirs) return { items };
  }
  if (!theirs) return { items };
  const page = await theirs(position.source === 'upstream' ? position.cursor : undefined);
  items.push(...page.items);
  return page.nextCursor === undefined
    ? { items }
    : { items, nextCursor: encode({ source: 'upstream', cursor: page.nextCursor }) };
}

function encode(position: Position): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

function decode(cursor: string): Position {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Position;
    if (
      (value.source === 'scratchpad' || value.source === 'upstream') &&
      (value.cursor === undefined || typeof value.cursor === 'string')
    )
      return value;
  } catch {
    // reported below
  }
  throw new ScratchpadError('INVALID_ARGUMENT', 'Invalid list cursor.', {
    hint: 'Pass the nextCursor of the previous page unchanged, or list again without a cursor.',
  });
}
