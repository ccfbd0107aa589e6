/**
 * A `COPY … TO STDOUT` run on a `pg` client as a custom query object (what `pg` calls a submittable), handing each
 * CopyData message's bytes to `receive` as they arrive. `pg`'s own query ignores CopyData, and reads result rows
 * only as text (`bytea` as hex, which the server must encode and the client decode); `COPY … (FORMAT binary)`
 * sends the bytes as they are. `receive` must copy what it keeps: the connection reuses its buffer.
 */
export class CopyOutQuery {
  readonly done: Promise<void>;
  #settle!: { resolve: () => void; reject: (error: unknown) => void };
  #failed: unknown;
  #settled = false;
  /**
   * Set by `pg` on a query it runs: called once the query is done. With `query_timeout` it wraps a timer that
   * `pg` clears only here, and a timer left running keeps the process alive for the whole timeout.
   */
  callback: ((error: unknown) => void) | undefined;

  constructor(
    readonly text: string,
    readonly receive: (bytes: Uint8Array) => void,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
  }

  /** Called by `pg` when the connection is free for this query. */
  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Uint8Array }): void {
    if (this.#failed !== undefined) return;
    try {
      this.receive(message.chunk);
    } catch (error) {
      // The rest of the stream is drained and dropped; the query fails once the server is done with it.
      this.#failed = error;
    }
  }

  /**
   * An error the server reported (followed by ReadyForQuery) or the connection's loss (not followed by anything):
   * either way this query has failed, and the caller discards the connection.
   */
  handleError(error: unknown): void {
    this.#end(error);
  }

  handleReadyForQuery(): void {
    this.#end(this.#failed);
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}

  /** Not a `COPY … FROM STDIN`: refused. */
  handleCopyInResponse(connection: { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('This query sends no data.');
  }

  #end(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.callback?.(error ?? null);
    if (error === undefined) this.#settle.resolve();
    else this.#settle.reject(error);
  }
}
