// A third-party StoreDriver, written against the installed package only: it keeps its own call log and
// forwards every operation to the package's in-memory driver. `contract.test.js` runs the published contract
// suite against it, the way a backend outside this repository would.
import { createMemoryDriver } from 'llm-scratchpad/memory';

export class ForwardingDriver {
  constructor() {
    this.inner = createMemoryDriver();
    this.calls = [];
  }

  log(operation) {
    this.calls.push(operation);
  }

  doStage(session) {
    this.log('doStage');
    return this.inner.doStage(session);
  }

  doCommit(request) {
    this.log('doCommit');
    return this.inner.doCommit(request);
  }

  doGetEntry(session, name) {
    this.log('doGetEntry');
    return this.inner.doGetEntry(session, name);
  }

  doGetEntryById(id) {
    this.log('doGetEntryById');
    return this.inner.doGetEntryById(id);
  }

  doListEntries(query) {
    this.log('doListEntries');
    return this.inner.doListEntries(query);
  }

  doLocateChunk(record, axis, position) {
    this.log('doLocateChunk');
    return this.inner.doLocateChunk(record, axis, position);
  }

  doReadChunks(record, seqStart, seqEnd) {
    this.log('doReadChunks');
    return this.inner.doReadChunks(record, seqStart, seqEnd);
  }

  doDeleteEntry(record) {
    this.log('doDeleteEntry');
    return this.inner.doDeleteEntry(record);
  }

  doListSessions() {
    this.log('doListSessions');
    return this.inner.doListSessions();
  }

  doDeleteSession(session) {
    this.log('doDeleteSession');
    return this.inner.doDeleteSession(session);
  }

  doStats() {
    this.log('doStats');
    return this.inner.doStats();
  }

  doSweepStaging(olderThanMs) {
    this.log('doSweepStaging');
    return this.inner.doSweepStaging(olderThanMs);
  }

  close() {
    this.log('close');
    return this.inner.close();
  }
}
