import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { clipStrings } from 'llm-scratchpad/extension';
import type { TurnLogRecord } from './turn-record.js';

/** `DIR/YYYY-MM-DD.jsonl` for the UTC day of `timeMs` (milliseconds since the epoch). */
export function turnLogFile(directory: string, timeMs: number): string {
  return join(directory, `${new Date(timeMs).toISOString().slice(0, 10)}.jsonl`);
}

/**
 * Appends one turn as a JSON line (append-only, one file per day, seed 002 ch. 11). A single `appendFile` of one
 * line keeps concurrent writers from interleaving within a line on local filesystems.
 */
export async function appendTurnLog(directory: string, record: TurnLogRecord): Promise<string> {
  await mkdir(directory, { recursive: true });
  // The record keeps Unix seconds (seed 002, ch. 11); the file is named from milliseconds.
  const file = turnLogFile(directory, record.ts_start * 1000);
  await appendFile(file, `${JSON.stringify(record)}\n`, 'utf8');
  return file;
}

/** Clips long strings inside a value so a log line stays small (a reference may expand to megabytes). */
export function clipForLog(value: unknown, maxChars = 2000): unknown {
  return clipStrings(value, maxChars);
}
