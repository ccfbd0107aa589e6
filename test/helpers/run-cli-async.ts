import { execFile } from 'node:child_process';

/** Result of {@link runCliAsync}. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI in a child process without blocking this process's event loop (the fake provider servers
 * a test starts live in this process and must keep answering).
 */
export function runCliAsync(
  cli: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string },
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [cli, ...args],
      { env: options.env, cwd: options.cwd, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code =
          error && typeof (error as NodeJS.ErrnoException & { code?: unknown }).code === 'number'
            ? (error as unknown as { code: number }).code
            : error
              ? 1
              : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}
