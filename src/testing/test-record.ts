import { randomBytes } from 'node:crypto';
import type { EntryRecord } from '../core/entry.js';

/**
 * An entry record for tests that talk to a driver directly (the service builds real ones): a one-line text entry
 * with a fresh id, every field set, `overrides` applied last. The one copy every backend's tests and the
 * driver-level contract share.
 */
export function testRecord(overrides: Partial<EntryRecord> = {}): EntryRecord {
  return {
    id: randomBytes(8).toString('hex'),
    name: 'doc',
    session: 's1',
    turn: null,
    step: null,
    source: null,
    kind: 'text',
    mediaType: 'text/plain; charset=utf-8',
    bytes: 1,
    chars: 1,
    lines: 1,
    sha256: '0'.repeat(64),
    createdAt: 1,
    updatedAt: 1,
    expiresAt: null,
    pinned: false,
    evictable: false,
    version: 1,
    metadata: {},
    contentId: '',
    chunkCount: 0,
    ...overrides,
  };
}
