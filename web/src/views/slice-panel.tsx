import { useEffect, useRef, useState } from 'preact/hooks';
import { get } from '../api.js';
import { formatCount } from '../format.js';
import { prettyJson } from '../json-indent.js';
import type { EntryDetail } from '../types.js';

const SLICE_CHARS = 16_384;

/** A character slice of a text entry: page through it, pretty-print it as JSON, copy it. */
export function SlicePanel({
  path,
  entry,
  offset: initial,
}: {
  path: string;
  entry: EntryDetail;
  offset: number;
}) {
  const [offset, setOffset] = useState(initial);
  const [content, setContent] = useState<string>();
  const [pretty, setPretty] = useState(entry.mediaType.includes('json'));
  const [copied, setCopied] = useState<string>();
  const text = useRef<HTMLPreElement>(null);
  const [error, setError] = useState<string>();

  useEffect(() => setOffset(initial), [initial]);
  useEffect(() => {
    setContent(undefined);
    get<{ content: string }>(`${path}/chars`, { offset, limit: SLICE_CHARS })
      .then((reply) => {
        setContent(reply.content);
        setError(undefined);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [path, offset]);

  /** Copies the slice; where the page is not a secure context (no clipboard API), selects it for Ctrl+C. */
  const copy = () => {
    const done = (label: string) => {
      setCopied(label);
      window.setTimeout(() => setCopied(undefined), 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      void navigator.clipboard.writeText(content ?? '').then(() => done('Copied'));
      return;
    }
    const range = document.createRange();
    if (text.current) range.selectNodeContents(text.current);
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(range);
    done('Selected: press Ctrl+C');
  };
  const shown = content === undefined ? '' : pretty ? prettyJson(content).text : content;
  const end = Math.min(entry.chars, offset + SLICE_CHARS);
  return (
    <section class="slice" aria-label="Slice">
      <h3>
        Chars {formatCount(offset)}–{formatCount(end)} of {formatCount(entry.chars)}
      </h3>
      <div class="toolbar">
        <button
          type="button"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - SLICE_CHARS))}
        >
          ← Previous
        </button>
        <button type="button" disabled={end >= entry.chars} onClick={() => setOffset(end)}>
          Next →
        </button>
        <label class="check">
          <input
            type="checkbox"
            checked={pretty}
            onChange={(event) => setPretty((event.target as HTMLInputElement).checked)}
          />{' '}
          JSON
        </label>
        <button type="button" disabled={content === undefined} onClick={copy}>
          {copied ?? 'Copy slice'}
        </button>
      </div>
      {error ? (
        <div class="error">{error}</div>
      ) : (
        <pre class="slice-text" ref={text}>
          {content === undefined ? '…' : shown}
        </pre>
      )}
    </section>
  );
}
