import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Verdict } from './vaglio-action.js';

/** One line of the vaglio's monthly JSONL log. Argument keys only: values never reach the log. */
export interface VaglioLogRecord {
  ts: string;
  executor: string;
  capabilities: string[];
  /** Top-level argument keys (each cut at 64 characters). */
  arg_keys: string[];
  approved: boolean;
  score: number | null;
  blocked_by: Verdict['blocked_by'];
  judge_kind: Verdict['judge_kind'];
  rule: string | null;
  reason: string;
}

/** Longest key written to the log: an anomalous key could carry text, so it is cut. */
const MAX_LOGGED_KEY = 64;

/** The top-level keys of `args`, as logged. */
export function loggedArgumentKeys(args: unknown): string[] {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return [];
  return Object.keys(args).map((key) =>
    key.length > MAX_LOGGED_KEY ? `${key.slice(0, MAX_LOGGED_KEY)}…` : key,
  );
}

/** `<logDir>/YYYY-MM.jsonl` for the UTC month of `date`. */
export function vaglioLogFile(logDir: string, date: Date): string {
  return join(logDir, `${date.toISOString().slice(0, 7)}.jsonl`);
}

/** Appends one record (the folder is created with mode 0700, the file with 0600). */
export function appendVaglioLog(logDir: string, date: Date, record: VaglioLogRecord): void {
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  appendFileSync(vaglioLogFile(logDir, date), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}
