import type { Executor } from '../executors/executor.js';
import { type DesiredSignature, signatureWords } from '../mnestome/desired-signature.js';

/**
 * Whether `executor` can stand in for what a model asked for, judged conservatively from its manifest: it accepts
 * every argument the call used (each is one of its properties), needs nothing more (its required properties are
 * among them), and its name and affinity cover at least half of the desired name's words.
 */
export function satisfiesSignature(executor: Executor, signature: DesiredSignature): boolean {
  if (signature.words.length === 0) return false;
  const properties = executor.args.properties;
  const accepted =
    typeof properties === 'object' && properties !== null && !Array.isArray(properties)
      ? new Set(Object.keys(properties))
      : new Set<string>();
  if (!signature.arg_keys.every((key) => accepted.has(key))) return false;
  const required = Array.isArray(executor.args.required) ? executor.args.required : [];
  if (!required.every((key) => typeof key === 'string' && signature.arg_keys.includes(key))) return false;
  const vocabulary = new Set(signatureWords([executor.name, ...executor.affinity].join(' ')));
  const covered = signature.words.filter((word) => vocabulary.has(word)).length;
  return covered >= Math.ceil(signature.words.length / 2);
}
