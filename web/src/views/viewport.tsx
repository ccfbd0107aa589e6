import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** Height of one row, in pixels (the stylesheet's `.row` uses the same). */
export const ROW_HEIGHT = 18;
/** Browsers cap an element's height (~33 M px in Chromium): past this, scroll positions map to rows by ratio. */
const MAX_SPACER_PX = 8_000_000;
const OVERSCAN = 20;

/** A source of numbered rows (1-based) that are fetched a page at a time. */
export interface RowSource<Row> {
  total: number;
  /** Fetches rows from `start`; may return fewer than `count` (the viewport asks again from the next one). */
  fetch(start: number, count: number): Promise<Row[]>;
  numberOf(row: Row): number;
  /** A key that changes when the content does (an entry's id and version): the cache is dropped then. */
  key: string;
}

interface ViewportProps<Row> {
  source: RowSource<Row>;
  render: (row: Row, active: boolean) => ComponentChildren;
  /** The row to bring into view and mark (a jump or a grep match); a new `seq` brings it back into view. */
  target?: { row: number; seq: number } | undefined;
  /** Called with the first visible row whenever it changes. */
  onTop?: (row: number) => void;
  pageSize?: number;
  label: string;
}

/**
 * Virtual scrolling over a row source: only the rows on screen (plus a margin) are fetched and rendered, so a
 * billion-row entry costs what a small one does. The scrollbar is a tall spacer; beyond {@link MAX_SPACER_PX} its
 * position maps to a row by ratio. Rows are cached (at most a few pages' worth).
 */
export function Viewport<Row>({ source, render, target, onTop, pageSize = 200, label }: ViewportProps<Row>) {
  const scroller = useRef<HTMLElement>(null);
  const [height, setHeight] = useState(600);
  const [top, setTop] = useState(1);
  const [, setTick] = useState(0);
  const cache = useRef(new Map<number, Row>());
  const inFlight = useRef(new Set<number>());
  const [error, setError] = useState<string>();

  const visible = Math.max(1, Math.ceil(height / ROW_HEIGHT));
  const spacer = Math.min(source.total * ROW_HEIGHT, MAX_SPACER_PX);
  const maxTop = Math.max(1, source.total - visible + 1);

  useEffect(() => {
    cache.current = new Map();
    inFlight.current = new Set();
    setTick((tick) => tick + 1);
  }, [source.key]);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    setHeight(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  const scrollToRow = useCallback(
    (row: number) => {
      const element = scroller.current;
      if (!element) return;
      const wanted = Math.min(maxTop, Math.max(1, row - Math.floor(visible / 3)));
      const range = Math.max(1, spacer - element.clientHeight);
      element.scrollTop = maxTop <= 1 ? 0 : ((wanted - 1) / (maxTop - 1)) * range;
      setTop(wanted);
    },
    [maxTop, visible, spacer],
  );

  useEffect(() => {
    if (target !== undefined) scrollToRow(target.row);
  }, [target, source.key, scrollToRow]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    const range = Math.max(1, spacer - element.clientHeight);
    const next = 1 + Math.round((element.scrollTop / range) * (maxTop - 1));
    setTop(Math.min(maxTop, Math.max(1, next)));
  };

  useEffect(() => onTop?.(top), [top, onTop]);

  // Fetch the first missing row on screen (after the scroll settles), then the next, until the screen is full.
  useEffect(() => {
    const first = Math.max(1, top - OVERSCAN);
    const last = Math.min(source.total, top + visible + OVERSCAN);
    let missing: number | undefined;
    for (let row = first; row <= last; row += 1) {
      if (!cache.current.has(row)) {
        missing = row;
        break;
      }
    }
    if (missing === undefined || inFlight.current.has(missing)) return;
    const start = missing;
    const timer = window.setTimeout(() => {
      inFlight.current.add(start);
      source
        .fetch(start, Math.max(pageSize, last - start + 1))
        .then((rows) => {
          if (cache.current.size > 20 * pageSize) cache.current = new Map();
          for (const row of rows) cache.current.set(source.numberOf(row), row);
          setError(undefined);
        })
        .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)))
        .finally(() => {
          inFlight.current.delete(start);
          setTick((tick) => tick + 1);
        });
    }, 40);
    return () => window.clearTimeout(timer);
  });

  const rows: ComponentChildren[] = [];
  const end = Math.min(source.total, top + visible);
  for (let number = top; number <= end; number += 1) {
    const row = cache.current.get(number);
    rows.push(
      row === undefined ? (
        <div class="row pending" key={number}>
          <span class="gutter">{number}</span>
          <span class="text">…</span>
        </div>
      ) : (
        <div key={number}>{render(row, number === target?.row)}</div>
      ),
    );
  }

  return (
    <div class="viewport-frame">
      {error ? (
        <div class="error" role="alert">
          {error}
        </div>
      ) : null}
      <section
        class="viewport"
        ref={scroller}
        onScroll={onScroll}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so the keyboard can scroll it
        tabIndex={0}
        aria-label={label}
        data-top={top}
      >
        <div class="rows">{rows}</div>
        <div class="spacer" style={{ height: `${spacer}px` }} />
      </section>
    </div>
  );
}
