import { ScratchpadError, type ScratchpadErrorCode } from '../core/errors.js';

/** Awaits `promise` and returns the `ScratchpadError` with `code` it rejected with; throws otherwise. */
export async function expectCode(
  promise: Promise<unknown>,
  code: ScratchpadErrorCode,
): Promise<ScratchpadError> {
  try {
    await promise;
  } catch (error) {
    if (ScratchpadError.hasCode(error, code)) return error;
    throw new Error(
      `expected ${code}, got ${error instanceof Error ? `${(error as ScratchpadError).code ?? error.name}: ${error.message}` : String(error)}`,
    );
  }
  throw new Error(`expected ${code}, but it succeeded`);
}
