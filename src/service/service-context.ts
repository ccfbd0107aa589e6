import { DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE } from '../core/chunk.js';
import { ScratchpadError } from '../core/errors.js';
import type { Redactor } from '../core/redaction/redactor.js';
import type { StoreDriver } from '../stores/driver.js';
import { resolveRedaction } from './redaction-config.js';
import type { ScratchpadConfig } from './scratchpad-config.js';
import { HashStates } from './writing/hash-states.js';
import { KnownRecords } from './writing/known-records.js';
import { validateTtl } from './writing/option-rules.js';

export type { ScratchpadConfig } from './scratchpad-config.js';

/** The resolved configuration the service's operations share. */
export interface ServiceContext {
  readonly driver: StoreDriver;
  readonly chunkSize: number;
  readonly defaultTtlMs: number | null;
  readonly maxEntryBytes: number;
  readonly maxStoreBytes: number | undefined;
  readonly maxSessionBytes: number | undefined;
  readonly maxReadBytes: number;
  readonly maxEditBytes: number;
  readonly now: () => number;
  /** Hash states of versions this process wrote, so appends do not re-read the entry. */
  readonly hashStates: HashStates;
  /** The records this process last committed: a small write's guess at what it replaces. */
  readonly knownRecords: KnownRecords;
  /** Redacts what a model sees (a no-op when off). */
  readonly viewRedactor: Redactor;
  /** Redacts content before it is stored (a no-op unless the host asked). */
  readonly storeRedactor: Redactor;
}

/** Applies the defaults of {@link ScratchpadConfig}. */
export function resolveServiceContext(config: ScratchpadConfig): ServiceContext {
  const driver = (config as Partial<ScratchpadConfig> | null | undefined)?.driver;
  if (typeof driver !== 'object' || driver === null) {
    throw new ScratchpadError('INVALID_ARGUMENT', 'createScratchpad needs a config with a store driver.', {
      hint: "Open one and pass it: createScratchpad({ driver: await openStore('sqlite:./scratch.db') }) (or 'memory:').",
    });
  }
  if (config.defaultTtlMs !== undefined) validateTtl(config.defaultTtlMs);
  for (const option of [
    'maxStoreBytes',
    'maxSessionBytes',
    'maxEntryBytes',
    'maxReadBytes',
    'maxEditBytes',
  ] as const) {
    const value = config[option];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `${option} must be a whole number of bytes > 0, got ${String(value)}.`,
        {
          details: { option },
        },
      );
    }
  }
  if (config.chunkSize !== undefined && config.chunkSize > MAX_CHUNK_SIZE) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `chunkSize must be at most ${MAX_CHUNK_SIZE} bytes (16 MiB), got ${config.chunkSize}.`,
      { details: { option: 'chunkSize' } },
    );
  }
  const redaction = resolveRedaction(config.redaction);
  return {
    driver: config.driver,
    chunkSize: config.chunkSize ?? config.driver.preferredChunkSize ?? DEFAULT_CHUNK_SIZE,
    defaultTtlMs: config.defaultTtlMs ?? null,
    maxEntryBytes: config.maxEntryBytes ?? 4 * 1024 ** 3,
    maxStoreBytes: config.maxStoreBytes,
    maxSessionBytes: config.maxSessionBytes,
    maxReadBytes: config.maxReadBytes ?? 64 * 1024 ** 2,
    maxEditBytes: config.maxEditBytes ?? 64 * 1024 ** 2,
    now: config.now ?? Date.now,
    hashStates: new HashStates(),
    knownRecords: new KnownRecords(),
    viewRedactor: redaction.view,
    storeRedactor: redaction.store,
  };
}
