/** One fenced code block of a Markdown file. */
export interface CodeBlock {
  /** 1-based line of the opening fence: the block's first code line is `fenceLine + 1`. */
  fenceLine: number;
  code: string;
}

/**
 * The fenced blocks of `markdown` whose info string is exactly `language` (```` ```ts ````), in order. Blocks
 * inside other fences are not looked for: a fence closes on the first line that is only the same run of
 * backticks.
 */
export function markdownCodeBlocks(markdown: string, language: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let open: { fence: string; info: string; fenceLine: number; code: string[] } | undefined;
  lines.forEach((line, index) => {
    if (open) {
      if (line.trimEnd() === open.fence) {
        if (open.info === language) blocks.push({ fenceLine: open.fenceLine, code: open.code.join('\n') });
        open = undefined;
      } else {
        open.code.push(line);
      }
      return;
    }
    const fence = /^(`{3,})\s*(\S*)/.exec(line);
    if (fence) open = { fence: fence[1] as string, info: fence[2] as string, fenceLine: index + 1, code: [] };
  });
  if (open) throw new Error(`The code block opened at line ${open.fenceLine} is never closed.`);
  return blocks;
}
