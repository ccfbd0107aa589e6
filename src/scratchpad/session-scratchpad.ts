import type { Entry } from '../core/entry.js';
import type { ReadSlice } from '../core/slice.js';
import type { ContentInput } from './content-input.js';
import type { GrepOptions } from './grep-scan.js';
import type { Scratchpad } from './scratchpad.js';
import type {
  EditOptions,
  EditResult,
  EntryRef,
  GrepResult,
  ListOptions,
  ReadOptions,
  ReadResult,
  SearchResult,
  UpdateOptions,
  WriteOptions,
  WriteResult,
} from './types.js';

/** A {@link Scratchpad} bound to one session: the same methods without the session argument. */
export class SessionScratchpad {
  readonly scratchpad: Scratchpad;
  readonly id: string;

  constructor(scratchpad: Scratchpad, session: string) {
    this.scratchpad = scratchpad;
    this.id = session;
  }

  write(name: string, content: ContentInput, options?: WriteOptions): Promise<WriteResult> {
    return this.scratchpad.write(this.id, name, content, options);
  }
  read(ref: EntryRef, slice?: ReadSlice, options?: ReadOptions): Promise<ReadResult> {
    return this.scratchpad.read(this.id, ref, slice, options);
  }
  stream(ref: EntryRef, slice?: ReadSlice): ReturnType<Scratchpad['stream']> {
    return this.scratchpad.stream(this.id, ref, slice);
  }
  grep(ref: EntryRef, options: GrepOptions): Promise<GrepResult> {
    return this.scratchpad.grep(this.id, ref, options);
  }
  edit(ref: EntryRef, options: EditOptions): Promise<EditResult> {
    return this.scratchpad.edit(this.id, ref, options);
  }
  update(ref: EntryRef, options: UpdateOptions): Promise<Entry> {
    return this.scratchpad.update(this.id, ref, options);
  }
  delete(ref: EntryRef, options?: { ifVersion?: number }): Promise<Entry> {
    return this.scratchpad.delete(this.id, ref, options);
  }
  get(ref: EntryRef): Promise<Entry> {
    return this.scratchpad.get(this.id, ref);
  }
  find(ref: EntryRef): Promise<Entry | undefined> {
    return this.scratchpad.find(this.id, ref);
  }
  list(options?: ListOptions): Promise<Entry[]> {
    return this.scratchpad.list(this.id, options);
  }
  listForTurn(turn: string): Promise<Entry[]> {
    return this.scratchpad.listForTurn(this.id, turn);
  }
  search(query: string, options?: { limit?: number }): Promise<SearchResult> {
    return this.scratchpad.search(this.id, query, options);
  }
}
