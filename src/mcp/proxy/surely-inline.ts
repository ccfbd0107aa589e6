import type { OffloadPolicy } from '../../context/offload/index.js';

/**
 * Whether the offloader would surely keep this one text inline as below its threshold, decided from the text's
 * length in UTF-16 units alone: a bound no measure can exceed (a unit is at most 3 UTF-8 bytes, at most one code
 * point, and at most 6 bytes once JSON-escaped, plus the 2 quotes). `false` means "ask the offloader", never
 * "offload": token measures and lengths near the threshold always go through it. The proxy then skips the
 * offloader's work for a small result (whose inline outcome it would not use) and changes nothing else.
 */
export function surelyInline(policy: OffloadPolicy, tool: string, text: string): boolean {
  if (tool.length === 0 || text.length === 0 || policy.isExempt(tool)) return false;
  const threshold = policy.thresholdFor(tool);
  switch (policy.measure) {
    case 'bytes':
      return text.length * 3 <= threshold;
    case 'chars':
      return text.length <= threshold;
    case 'json-bytes':
      return text.length * 6 + 2 <= threshold;
    default:
      return false;
  }
}
