import { tokenize } from '../prefilter/tokenize.js';

/** Where an input of a desired executor came from: an earlier step's executor and the field it passed. */
export interface SignatureInput {
  from: string;
  field: string;
}

/**
 * What a model asked for when it called an executor that does not exist, inferred conservatively: only what the
 * call itself shows (seed 002, ch. 12 `build_desired_signature`).
 */
export interface DesiredSignature {
  /** The tool name the model called. */
  name: string;
  /** The content words of the name (`pdf_to_text` → `pdf`, `text`), plurals folded. */
  words: string[];
  /** The argument keys of the call, sorted. */
  arg_keys: string[];
  /** The earlier steps whose output the call referenced (`{{stepN.field}}`). */
  inputs: SignatureInput[];
}

/** Builds the desired signature of a call to `name` with `args`, whose references point at `inputs`. */
export function buildDesiredSignature(
  name: string,
  args: unknown,
  inputs: readonly SignatureInput[],
): DesiredSignature {
  const keys =
    typeof args === 'object' && args !== null && !Array.isArray(args) ? Object.keys(args).slice(0, 32) : [];
  return {
    name,
    words: signatureWords(name),
    arg_keys: keys.map((key) => key.slice(0, 64)).sort(),
    inputs: inputs.slice(0, 16).map((input) => ({ from: input.from, field: input.field.slice(0, 128) })),
  };
}

/** Distinct content words of `text`, with a plural `s` folded (`files` → `file`), for comparing names. */
export function signatureWords(text: string): string[] {
  return [...new Set(tokenize(text).map(singular))];
}

function singular(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The signature stored for a passage, read back; `null` when the text is not one. */
export function parseDesiredSignature(text: string | null): DesiredSignature | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as DesiredSignature;
    if (typeof value?.name === 'string' && Array.isArray(value.words) && Array.isArray(value.arg_keys))
      return { ...value, inputs: Array.isArray(value.inputs) ? value.inputs : [] };
  } catch {
    // Not JSON: treated as no signature.
  }
  return null;
}
