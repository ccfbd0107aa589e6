import { readFileSync } from 'node:fs';

/** The `version` of the package's package.json (what `scratchpad --version` prints); 0.0.0 when it cannot be read. */
export function packageVersion(): string {
  try {
    const path = new URL('../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
