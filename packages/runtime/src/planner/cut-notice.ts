import { formatCount } from 'llm-scratchpad/extension';
import type { JsonObject } from 'llm-scratchpad';

const MAX_NOTICE_CHARS = 2000;

/**
 * The first line of the observation of a result a bound cut: how much was kept of how much, which bound, and the
 * call that reads on. Executors say it in `metadata.cut = {stored_bytes, total_bytes (null: unknown), start?,
 * bound, read_on}`; anything else is no notice. One line whatever the values hold.
 */
export function cutNotice(metadata: JsonObject | undefined): string | undefined {
  const cut = metadata?.cut;
  if (typeof cut !== 'object' || cut === null || Array.isArray(cut)) return undefined;
  const { stored_bytes: stored, total_bytes: total, start, bound, read_on: readOn } = cut as JsonObject;
  if (typeof stored !== 'number') return undefined;
  const of =
    typeof total === 'number' ? `of ${formatCount(total)} bytes` : 'bytes of an output whose size is unknown';
  const from = typeof start === 'number' && start > 0 ? ` from byte ${formatCount(start)}` : '';
  const notice =
    `[cut: kept ${formatCount(stored)} ${of}${from}, the bound ${typeof bound === 'string' ? bound : 'of the runtime'}` +
    `${typeof readOn === 'string' ? `; to read on: ${readOn}` : ''}]`;
  const line = notice.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ');
  return line.length > MAX_NOTICE_CHARS ? `${line.slice(0, MAX_NOTICE_CHARS)}…]` : line;
}
