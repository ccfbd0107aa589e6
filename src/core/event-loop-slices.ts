/**
 * A long synchronous pass cut into slices of at most `sliceMs` of work: await the returned function between steps
 * of the pass, and once the current slice has run `sliceMs` it gives the event loop a turn (`setImmediate`, so
 * timers and I/O run) before the next step starts a new slice. A step shorter than `sliceMs` never stalls the
 * process by more than about its own length plus `sliceMs`.
 */
export function eventLoopSlices(sliceMs: number): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart <= sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
}
