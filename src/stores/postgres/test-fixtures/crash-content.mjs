/**
 * What crash-writer.mjs writes as entry I: mostly small texts (one round trip), every fifth 1.5 MiB (more than
 * the driver buffers: its chunks go to a staging row before the commit).
 */
export function contentOf(index) {
  const line = `write ${index} `;
  return index % 5 === 4
    ? line.repeat(Math.ceil((1.5 * 1024 * 1024) / line.length))
    : line.repeat(1 + (index % 50));
}
