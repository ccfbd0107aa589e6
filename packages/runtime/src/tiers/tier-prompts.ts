import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ScratchpadError } from 'llm-scratchpad';
import { type RuntimeConfig, TIERS, type Tier } from '../config/runtime-config.js';

/** Each tier's prompt: its point of view, put first in the system prompt of every request it serves. */
export type TierPrompts = Readonly<Record<Tier, string>>;

/** The package's `prompts/` folder (the same relative path from `src/` and `dist/`). */
export function shippedPromptsDir(): string {
  return fileURLToPath(new URL('../../prompts/', import.meta.url));
}

let shipped: TierPrompts | undefined;

/** The prompts shipped in the package (`prompts/fast.md`, `middle.md`, `wise.md`), read once. */
export function shippedTierPrompts(): TierPrompts {
  shipped ??= Object.fromEntries(
    TIERS.map((tier) => [tier, readFileSync(`${shippedPromptsDir()}${tier}.md`, 'utf8').trim()]),
  ) as Record<Tier, string>;
  return shipped;
}

/** Largest prompt file read (a prompt is a paragraph or two; a bigger file is a mistake). */
const MAX_PROMPT_BYTES = 64 * 1024;

/**
 * The tier prompts of `config`: a tier's `prompt_file` when its section sets one, else the shipped prompt. The
 * prompt follows the tier asked for even when its model aliases down. A prompt file that cannot be read, is
 * empty or is larger than 64 KiB is a `CONFIG_INVALID` naming it.
 */
export async function loadTierPrompts(config: RuntimeConfig): Promise<TierPrompts> {
  const prompts: Record<Tier, string> = { ...shippedTierPrompts() };
  for (const tier of TIERS) {
    const file = config.llm[tier]?.promptFile;
    if (file === undefined) continue;
    let text: string;
    try {
      text = (await readFile(file, 'utf8')).trim();
    } catch (error) {
      throw new ScratchpadError(
        'CONFIG_INVALID',
        `Cannot read the prompt_file of [runtime.llm.${tier}]: ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
        {
          hint: `Fix the path in ${config.path ?? 'the config file'} (relative paths start at its folder), or remove prompt_file to use the shipped prompt.`,
          details: { tier, file },
          cause: error,
        },
      );
    }
    if (text === '' || Buffer.byteLength(text) > MAX_PROMPT_BYTES) {
      throw new ScratchpadError(
        'CONFIG_INVALID',
        `The prompt_file of [runtime.llm.${tier}] (${file}) is ${text === '' ? 'empty' : 'larger than 64 KiB'}.`,
        { hint: 'Write the tier’s point of view in a paragraph or two.', details: { tier, file } },
      );
    }
    prompts[tier] = text;
  }
  return prompts;
}
