import type { EntryRecord } from '../../core/entry.js';
import { escapeRegex } from '../../core/escape-regex.js';
import { queryTerms } from '../../core/query-terms.js';
import { decodeUtf8 } from '../../core/utf8.js';
import type { DriverSearchHit, StoreDriver } from '../../stores/driver.js';
import { ChunkCursor } from '../reading/chunk-cursor.js';

/** How long the scan may hold the event loop before it yields, in milliseconds. */
const SCAN_SLICE_MS = 10;

/**
 * Ranked search for drivers without a full-text index: scans every live text entry of the session once,
 * counts the query's terms (case-insensitive), ranks with BM25 and cuts a snippet around the first hit.
 */
export async function searchByScan(
  driver: StoreDriver,
  session: string,
  query: string,
  limit: number,
): Promise<DriverSearchHit[]> {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  // An alternation of literals: V8's engine runs it without backtracking blow-up, and one global match per chunk
  // finds every occurrence.
  const pattern = new RegExp(terms.map(escapeRegex).join('|'), 'giu');
  // Case-insensitive matching maps a character to one of the same length, but a match may take a UTF-16 unit more
  // or less per character than its term: twice the longest term holds any match.
  const carryLength = 2 * Math.max(...terms.map((term) => term.length));
  const records = (await driver.doListEntries({ session })).filter((record) => record.kind === 'text');
  const stats: Array<{ record: EntryRecord; counts: Map<string, number>; snippet: string }> = [];
  let sliceStart = performance.now();
  for (const record of records) {
    const counts = new Map<string, number>();
    let snippet = '';
    for (const term of terms)
      if (record.name.toLowerCase().includes(term)) counts.set(term, (counts.get(term) ?? 0) + 1);
    const cursor = new ChunkCursor(driver, record);
    // The end of the text before each chunk, searched again with it, so a term a chunk boundary cuts is found;
    // a match that ends inside it was counted with the chunk before.
    let carry = '';
    for (let seq = 0; seq < record.chunkCount; seq += 16) {
      for (const chunk of await cursor.chunks(seq, seq + 16)) {
        const text = carry + decodeUtf8(chunk.data);
        for (const match of text.matchAll(pattern)) {
          if (match.index + match[0].length <= carry.length) continue;
          const term = match[0].toLowerCase();
          counts.set(term, (counts.get(term) ?? 0) + 1);
          if (snippet === '') snippet = makeSnippet(text, match.index, match[0].length, terms);
        }
        carry = text.slice(-carryLength);
        // An in-memory driver answers without I/O, so nothing else would give the event loop a turn.
        if (performance.now() - sliceStart > SCAN_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
      cursor.forget(seq, seq + 16);
    }
    if (counts.size > 0) stats.push({ record, counts, snippet: snippet || record.name });
  }
  const documents = Math.max(1, records.length);
  const averageLength = records.reduce((sum, record) => sum + record.chars, 0) / documents || 1;
  const containingTerm = new Map<string, number>();
  for (const { counts } of stats)
    for (const term of counts.keys()) containingTerm.set(term, (containingTerm.get(term) ?? 0) + 1);
  const scored = stats.map(({ record, counts, snippet }) => {
    let score = 0;
    for (const [term, frequency] of counts) {
      const containing = containingTerm.get(term) ?? 0;
      const idf = Math.log((documents - containing + 0.5) / (containing + 0.5) + 1);
      const norm = 1.2 * (0.25 + (0.75 * record.chars) / averageLength);
      score += (idf * (frequency * 2.2)) / (frequency + norm);
    }
    return { record, score, snippet };
  });
  return scored.sort((a, b) => b.score - a.score).slice(0, limit);
}

function makeSnippet(text: string, at: number, length: number, terms: string[]): string {
  const start = Math.max(0, at - 60);
  const end = Math.min(text.length, at + length + 60);
  let snippet = text.slice(start, end).replace(/\s+/g, ' ');
  for (const term of terms)
    snippet = snippet.replace(new RegExp(escapeRegex(term), 'gi'), (found) => `[${found}]`);
  return `${start > 0 ? '…' : ''}${snippet}${end < text.length ? '…' : ''}`;
}
