import { formatCount } from '../../core/format.js';
import type { SampledLine } from './content-sample.js';

/** The outline of an XML or HTML text. */
export interface MarkupOutline {
  kind: 'XML' | 'HTML';
  /** The document's `<title>`, when it has one. */
  title?: string;
  /** The first top-level element's name. */
  root?: string;
  /** Outline lines (element paths with counts, or headings), with their depth. */
  lines: Array<{ text: string; depth: number }>;
}

// HTML elements that never have a closing tag.
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
// A tag ends at the first `>` and never spans another `<`: one pass over a line, whatever it holds (a quoted `>` in
// an attribute cuts that tag short, which only blurs the outline).
const TAG = /<(\/?)([A-Za-z][\w:.-]{0,63})([^<>]{0,2000})>/g;
const MAX_DEPTH = 6;
const MAX_PATHS = 400;

interface ElementNode {
  name: string;
  count: number;
  line: number | undefined;
  children: Map<string, ElementNode>;
}

/**
 * The outline of markup: for XML the element tree with how many of each element and the line of the first; for
 * HTML the title, the h1–h3 headings and the element tree down to four levels. Reads the sampled lines once.
 * With `sampled` (the lines are a sample of a longer text) the counts are lower bounds and say so (`×≥12`).
 * Returns `undefined` unless the text starts with `<`.
 */
export function markupOutline(lines: readonly SampledLine[], sampled = false): MarkupOutline | undefined {
  const firstLine = lines.find((line) => line.text.trim().length > 0);
  if (
    !firstLine?.text
      .trimStart()
      .replace(/^\uFEFF/, '')
      .startsWith('<')
  )
    return undefined;
  const opening = lines
    .slice(0, 20)
    .map((line) => line.text)
    .join('\n');
  const kind = /<!doctype html|<html[\s>]/i.test(opening) ? 'HTML' : 'XML';
  const stack: string[] = [];
  const root: ElementNode = { name: '', count: 0, line: undefined, children: new Map() };
  let elements = 0;
  const headings: Array<{ text: string; depth: number }> = [];
  let title: string | undefined;
  for (const line of lines) {
    // The title and headings are read from the tag pass: the text between an opening tag and its closing tag on the
    // same line (one pass; a regex per heading would go quadratic on a line of unclosed tags).
    let open: { name: string; start: number } | undefined;
    for (const tag of line.text.matchAll(TAG)) {
      const name = kind === 'HTML' ? (tag[2] as string).toLowerCase() : (tag[2] as string);
      const closing = tag[1] === '/';
      const selfClosing =
        (tag[3] as string).endsWith('/') || (kind === 'HTML' && VOID.has(name.toLowerCase()));
      if (kind === 'HTML' && /^(?:title|h[1-3])$/.test(name)) {
        if (!closing) open = { name, start: (tag.index as number) + tag[0].length };
        else if (open?.name === name) {
          const text = squeeze(line.text.slice(open.start, tag.index).replace(/<[^<>]*>/g, ''));
          if (name === 'title') title ??= text;
          else if (text && headings.length < 20) {
            headings.push({ text: `${'  '.repeat(Number(name[1]))}${name} ${text}${where(line)}`, depth: 1 });
          }
          open = undefined;
        }
      }
      if (closing) {
        const at = stack.lastIndexOf(name);
        if (at !== -1) stack.length = at;
        continue;
      }
      // Unclosed elements (HTML's <p>, <li>) pile up: the stack is bounded, and deep levels are not recorded.
      if (stack.length >= 256) continue;
      stack.push(name);
      if (stack.length <= MAX_DEPTH) {
        let node: ElementNode | undefined = root;
        for (let depth = 0; depth < stack.length - 1 && node; depth++)
          node = node.children.get(stack[depth] as string);
        const known = node?.children.get(name);
        if (known) known.count++;
        else if (node && elements < MAX_PATHS) {
          elements++;
          node.children.set(name, { name, count: 1, line: line.number, children: new Map() });
        }
      }
      if (selfClosing) stack.pop();
    }
  }
  const outline: Array<{ text: string; depth: number }> = [];
  const visit = (node: ElementNode, depth: number) => {
    if (kind === 'HTML' && depth > 4) return;
    for (const child of node.children.values()) {
      const first = child.line === undefined ? '' : ` (first on line ${child.line})`;
      outline.push({
        text: `${'  '.repeat(depth)}${child.name} ×${sampled ? '≥' : ''}${formatCount(child.count)}${first}`,
        depth,
      });
      visit(child, depth + 1);
    }
  };
  visit(root, 1);
  const top = root.children.keys().next().value;
  return {
    kind,
    ...(title === undefined ? {} : { title }),
    ...(top === undefined ? {} : { root: top }),
    lines: [...headings, ...outline],
  };
}

function squeeze(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 120);
}

function where(line: SampledLine): string {
  return line.number === undefined ? '' : ` (line ${line.number})`;
}
