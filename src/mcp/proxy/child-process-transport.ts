import { type ChildProcess, spawn } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { readJsonRpcMessage } from '../transport/jsonrpc-message.js';
import { EDGE_BYTES, LineFramer } from '../transport/line-framer.js';
import { describeSkippedMessage } from '../transport/skipped-message.js';

/** How to start an upstream MCP server that speaks stdio. */
export interface ChildProcessCommand {
  command: string;
  args: string[];
  /** The whole environment of the child. */
  env: Record<string, string>;
  cwd?: string;
}

/** How the child ended: its exit code, or the signal that ended it. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The client side of stdio for an upstream server: spawns it and frames its stdout in linear time with no size
 * limit but memory, so results of any size arrive whole (the SDK's client transport stops at 10 MiB and joins
 * buffers quadratically). Implements the SDK's `Transport`; `exit` says how the child ended once `onclose` ran.
 */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Set when the child has ended. */
  exit: ChildExit | undefined;

  readonly #command: ChildProcessCommand;
  readonly #framer = new LineFramer(Number.POSITIVE_INFINITY);
  #child: ChildProcess | undefined;
  #closed = false;

  constructor(command: ChildProcessCommand) {
    this.#command = command;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    if (this.#child) throw new Error('ChildProcessTransport already started.');
    return new Promise((resolve, reject) => {
      const child = spawn(this.#command.command, this.#command.args, {
        env: this.#command.env,
        ...(this.#command.cwd ? { cwd: this.#command.cwd } : {}),
        stdio: ['pipe', 'pipe', 'inherit'],
        shell: false,
      });
      this.#child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
        this.#finish({ code: null, signal: null });
      });
      child.once('spawn', () => resolve());
      child.once('close', (code, signal) => this.#finish({ code, signal }));
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        for (const frame of this.#framer.push(chunk)) {
          if (frame.type !== 'line' || frame.line.length === 0) continue;
          this.#receive(frame.line);
        }
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closed || !stdin.writable) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve, reject) => {
      stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Ends the child: stdin closed, then SIGTERM after 2 s, SIGKILL after 4 s. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.exit) {
      this.#finish(this.exit ?? { code: null, signal: null });
      return;
    }
    const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const within = (ms: number) =>
      Promise.race([
        ended.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref()),
      ]);
    child.stdin?.end();
    if (await within(2000)) return;
    child.kill('SIGTERM');
    if (await within(2000)) return;
    child.kill('SIGKILL');
    await ended;
  }

  #receive(line: Buffer): void {
    let message: JSONRPCMessage;
    try {
      const read = readJsonRpcMessage(JSON.parse(line.toString('utf8')));
      if (!read.success) throw read.error;
      message = read.data;
    } catch (error) {
      const reason = `the upstream server sent a ${line.length}-byte line that could not be read as JSON-RPC (${(error as Error).message})`;
      this.onerror?.(new Error(reason));
      // A reply that cannot be read still ends its request, so the caller gets an error instead of a wait.
      const { id } = describeSkippedMessage(line.subarray(0, EDGE_BYTES), line.subarray(-EDGE_BYTES));
      if (id !== undefined) {
        this.onmessage?.({
          jsonrpc: '2.0',
          id,
          error: { code: ErrorCode.InternalError, message: `Upstream reply lost: ${reason}.` },
        });
      }
      return;
    }
    if ('id' in message && !('method' in message)) {
      // The SDK dispatches notifications a microtask later but settles responses at once, so a progress
      // notification read in the same chunk as its response would find its request gone. Responses wait a turn.
      setImmediate(() => this.onmessage?.(message));
      return;
    }
    this.onmessage?.(message);
  }

  #finish(exit: ChildExit): void {
    if (this.#closed) return;
    this.#closed = true;
    this.exit = exit;
    this.#framer.clear();
    this.onclose?.();
  }
}
