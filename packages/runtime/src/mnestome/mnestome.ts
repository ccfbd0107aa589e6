import { join } from 'node:path';
import { ScratchpadError } from 'llm-scratchpad';
import { StateDatabase } from 'llm-scratchpad/extension';
import { scratchpadDataDir } from 'llm-scratchpad/extension';
import type { EnvironmentVariables } from '../executors/xdg-dirs.js';
import { type DesiredSignature, parseDesiredSignature } from './desired-signature.js';
import { DAY_MS, MNESTOME } from './mnestome-constants.js';

/** A passage between two executors, as `mnestome list --json` shows it. */
export interface Passage {
  src: string;
  dst: string;
  weight: number;
  uses: number;
  /** ISO 8601. */
  last_used_at: string;
  /** False for a proto-mnest: the model asked for `dst`, which does not exist. */
  dst_exists: boolean;
  desired_signature: DesiredSignature | null;
}

/** A passage with the state `apply_ager` keeps: `active`, or `dormant` once demoted. */
export interface StoredPassage extends Passage {
  state: 'active' | 'dormant';
}

/** What {@link Mnestome.recordPassing} writes. */
export interface PassingInput {
  src: string;
  dst: string;
  dstExists: boolean;
  /** For a proto-mnest: what the model asked for. */
  desiredSignature?: DesiredSignature;
  /** Milliseconds since the epoch (default now). */
  at?: number;
}

/** What one `apply_ager` did. */
export interface AgerResult {
  decayed: number;
  demoted: number;
  purged: number;
}

/** `$XDG_DATA_HOME/scratchpad/mnestome.db`: the mnestome beside the default store. */
export function defaultMnestomePath(env: EnvironmentVariables = process.env): string {
  return join(scratchpadDataDir(env), 'mnestome.db');
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS passages (
  src TEXT NOT NULL,
  dst TEXT NOT NULL,
  weight REAL NOT NULL,
  uses INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  dst_exists INTEGER NOT NULL,
  desired_signature TEXT,
  state TEXT NOT NULL DEFAULT 'active',
  created_at INTEGER NOT NULL,
  aged_at INTEGER NOT NULL,
  PRIMARY KEY (src, dst)
) WITHOUT ROWID;
`;

interface PassageRow {
  src: string;
  dst: string;
  weight: number;
  uses: number;
  last_used_at: number;
  dst_exists: number;
  desired_signature: string | null;
  state: 'active' | 'dormant';
  aged_at: number;
}

/**
 * The mnestome of seed 002, ch. 12: a SQLite file of passages `src → dst` between executors, written when a turn
 * pipes one step's output into another (`record_passing`), aged by `apply_ager`, and walked by compose. Every
 * failure is a `ScratchpadError` (`STORE_UNAVAILABLE`, `STORE_CORRUPT`, …) naming the file.
 */
export class Mnestome {
  readonly #state: StateDatabase;

  private constructor(state: StateDatabase) {
    this.#state = state;
  }

  /** Opens (creating it when missing) the mnestome at `path` (default {@link defaultMnestomePath}). */
  static open(path: string = defaultMnestomePath()): Mnestome {
    return new Mnestome(StateDatabase.open(path, SCHEMA));
  }

  /** The file. */
  get path(): string {
    return this.#state.path;
  }

  /**
   * Records one passage: a new one gets the bootstrap weight, a known one is reinforced (`weight += rate ×
   * (1 − weight)`), its use counted, woken if dormant. A real passage makes a proto-mnest of the same pair real.
   */
  async recordPassing(input: PassingInput): Promise<Passage> {
    for (const name of [input.src, input.dst]) {
      if (name === '' || name.length > MNESTOME.maxNameLength) {
        throw new ScratchpadError(
          'INVALID_NAME',
          `Executor name ${JSON.stringify(name.slice(0, 80))} cannot be recorded.`,
          { hint: `Names are 1 to ${MNESTOME.maxNameLength} characters.` },
        );
      }
    }
    const at = input.at ?? Date.now();
    const signature = input.desiredSignature ? JSON.stringify(input.desiredSignature) : null;
    const row = await this.#state.transaction((database) => {
      database
        .prepare(
          `INSERT INTO passages (src, dst, weight, uses, last_used_at, dst_exists, desired_signature, state, created_at, aged_at)
           VALUES (?, ?, ?, 1, ?, ?, ?, 'active', ?, ?)
           ON CONFLICT (src, dst) DO UPDATE SET
             weight = weight + ? * (1 - weight),
             uses = uses + 1,
             last_used_at = max(last_used_at, excluded.last_used_at),
             dst_exists = max(dst_exists, excluded.dst_exists),
             desired_signature = coalesce(excluded.desired_signature, desired_signature),
             state = 'active'`,
        )
        .run(
          input.src,
          input.dst,
          MNESTOME.bootstrapWeight,
          at,
          input.dstExists ? 1 : 0,
          signature,
          at,
          at,
          MNESTOME.reinforcementRate,
        );
      return database
        .prepare('SELECT * FROM passages WHERE src = ? AND dst = ?')
        .get(input.src, input.dst) as PassageRow;
    });
    return toPassage(row);
  }

  /** Every passage, heaviest first (ties by name). */
  async list(): Promise<StoredPassage[]> {
    const rows = await this.#state.run(
      (database) =>
        database.prepare('SELECT * FROM passages ORDER BY weight DESC, src, dst').all() as PassageRow[],
    );
    return rows.map((row) => ({ ...toPassage(row), state: row.state }));
  }

  /** The real, active passages: the graph compose walks. */
  async realPassages(): Promise<StoredPassage[]> {
    return (await this.list()).filter((passage) => passage.dst_exists && passage.state === 'active');
  }

  /** Proto-mnests asked for often enough to try composing them (`synt_suggest`). */
  async recurringProtos(): Promise<StoredPassage[]> {
    return (await this.list()).filter(
      (passage) =>
        !passage.dst_exists &&
        passage.uses >= MNESTOME.recurringMinUses &&
        passage.weight >= MNESTOME.recurringMinWeight,
    );
  }

  /**
   * `apply_ager`: decays every passage by the time since it was last aged or used (half-life
   * {@link MNESTOME}.decayHalfLifeDays, so running it twice costs nothing), demotes real passages below the demote
   * weight to dormant, and purges proto-mnests unused for {@link MNESTOME}.protoStaleAfterDays. One transaction.
   */
  applyAger(now: number = Date.now()): Promise<AgerResult> {
    const halfLifeMs = MNESTOME.decayHalfLifeDays * DAY_MS;
    return this.#state.transaction((database) => {
      const rows = database.prepare('SELECT * FROM passages').all() as PassageRow[];
      const update = database.prepare(
        'UPDATE passages SET weight = ?, aged_at = ?, state = ? WHERE src = ? AND dst = ?',
      );
      const purge = database.prepare('DELETE FROM passages WHERE src = ? AND dst = ?');
      const result: AgerResult = { decayed: 0, demoted: 0, purged: 0 };
      for (const row of rows) {
        if (row.dst_exists === 0 && now - row.last_used_at > MNESTOME.protoStaleAfterDays * DAY_MS) {
          purge.run(row.src, row.dst);
          result.purged += 1;
          continue;
        }
        const elapsed = Math.max(0, now - Math.max(row.aged_at, row.last_used_at));
        const weight = elapsed === 0 ? row.weight : row.weight * 0.5 ** (elapsed / halfLifeMs);
        if (weight < row.weight) result.decayed += 1;
        const demote = row.dst_exists === 1 && row.state === 'active' && weight < MNESTOME.demoteBelowWeight;
        if (demote) result.demoted += 1;
        update.run(weight, Math.max(row.aged_at, now), demote ? 'dormant' : row.state, row.src, row.dst);
      }
      return result;
    });
  }

  close(): void {
    this.#state.close();
  }
}

function toPassage(row: PassageRow): Passage {
  return {
    src: row.src,
    dst: row.dst,
    weight: Math.round(row.weight * 10_000) / 10_000,
    uses: row.uses,
    last_used_at: new Date(row.last_used_at).toISOString(),
    dst_exists: row.dst_exists === 1,
    desired_signature: parseDesiredSignature(row.desired_signature),
  };
}
