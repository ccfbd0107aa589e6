/** Lines of a plain-text table: the first column left-aligned, the others right-aligned, a rule under the header. */
export function textTable(header, body) {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => cells[column].length)),
  );
  const line = (cells) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)];
}
