import { ScratchpadError } from '../../core/errors.js';
import type { WriteOptions } from '../types.js';
import type { StagedContent } from './content-writer.js';

/** The media type of content written without one. */
export function defaultMediaType(kind: 'text' | 'binary'): string {
  return kind === 'text' ? 'text/plain; charset=utf-8' : 'application/octet-stream';
}

/** `text` or `binary` for staged content: strings are text, bytes are text when they are valid UTF-8. */
export function decideKind(
  requested: WriteOptions['kind'],
  fromString: boolean,
  staged: StagedContent,
): 'text' | 'binary' {
  if (requested === 'binary') return 'binary';
  if (requested === 'text' && !staged.utf8) {
    throw new ScratchpadError('NOT_TEXT', 'The content is not valid UTF-8 text.', {
      hint: 'Write it with kind "binary" (or "auto").',
    });
  }
  if (requested === 'text' || fromString) return 'text';
  return staged.utf8 ? 'text' : 'binary';
}
