import { formatUnknownError } from 'llm-scratchpad';
import { describeGc } from 'llm-scratchpad';
import type { Scratchpad } from 'llm-scratchpad';
import { compose } from '../compose/compose.js';
import { suggestExecutor } from '../compose/executor-suggestion.js';
import type { Executor } from '../executors/executor.js';
import type { Mnestome, StoredPassage } from '../mnestome/mnestome.js';
import { MNESTOME } from '../mnestome/mnestome-constants.js';
import type { TierModel } from '../tiers/tier-models.js';
import type { TaskDefinition } from './scheduler.js';

/** What the built-in tasks work on, each opened when its task runs. */
export interface BuiltinTaskDependencies {
  /** The mnestome (the task closes it). */
  openMnestome: () => Mnestome;
  /** The verified catalog: a suggested chain must be made of signed executors. */
  loadCatalog: () => Promise<readonly Executor[]>;
  /** The store whose expired entries `gc` removes. */
  scratchpad: () => Promise<Scratchpad>;
  /**
   * The `wise` tier, when `[runtime.llm.wise]` is configured: `synt_suggest` asks it how an abandoned recurring
   * proto-mnest could be closed (at most {@link MAX_WISE_SUGGESTIONS} per run).
   */
  wise?: () => TierModel;
}

/** Most abandoned proto-mnests `synt_suggest` asks the wise tier about in one run. */
export const MAX_WISE_SUGGESTIONS = 5;

/**
 * The tasks registered by default (seed 002, ch. 13): `apply_ager` (`daily@04:00`), `synt_suggest`
 * (`daily@04:30`) and `gc` (`every_60_minutes`).
 */
export function builtinTasks(dependencies: BuiltinTaskDependencies): TaskDefinition[] {
  const withMnestome = async <Result>(use: (mnestome: Mnestome) => Promise<Result> | Result) => {
    const mnestome = dependencies.openMnestome();
    try {
      return await use(mnestome);
    } finally {
      mnestome.close();
    }
  };
  return [
    {
      name: 'apply_ager',
      schedule: 'daily@04:00',
      description: 'decay, demote and proto purge on the mnestome',
      run: ({ now }) =>
        withMnestome(async (mnestome) => {
          const result = await mnestome.applyAger(now);
          return `${result.decayed} decayed, ${result.demoted} demoted, ${result.purged} purged`;
        }),
    },
    {
      name: 'synt_suggest',
      schedule: 'daily@04:30',
      description: `compose-only synthesis for each recurring proto-mnest (uses ≥ ${MNESTOME.recurringMinUses}, weight ≥ ${MNESTOME.recurringMinWeight.toFixed(2)})`,
      run: () =>
        withMnestome(async (mnestome) => {
          const protos = await mnestome.recurringProtos();
          if (protos.length === 0)
            return `no recurring proto-mnest (uses ≥ ${MNESTOME.recurringMinUses}, weight ≥ ${MNESTOME.recurringMinWeight.toFixed(2)})`;
          const catalog = await dependencies.loadCatalog();
          const lines: string[] = [];
          let asked = 0;
          for (const proto of protos) {
            const head = `${proto.src} → ${proto.dst} (uses ${proto.uses}, weight ${proto.weight.toFixed(2)})`;
            if (!proto.desired_signature) {
              lines.push(`${head}: no desired signature recorded`);
              continue;
            }
            const signature = proto.desired_signature;
            const outcome = await compose({ sources: [proto.src], signature, mnestome, catalog });
            if (outcome.state === 'composed') {
              lines.push(
                `${head}: composed, chain ${outcome.chain.join(' → ')}, first hop ${outcome.first_hop}`,
              );
            } else if (!dependencies.wise || asked >= MAX_WISE_SUGGESTIONS) {
              lines.push(`${head}: abandoned`);
            } else {
              asked += 1;
              lines.push(`${head}: abandoned; ${await wiseSuggestion(dependencies.wise, proto, catalog)}`);
            }
          }
          return lines.join('\n');
        }),
    },
    {
      name: 'gc',
      schedule: 'every_60_minutes',
      description: "the store's gc: expired entries, abandoned staging areas, the size cap",
      run: async () => {
        const result = await (await dependencies.scratchpad()).gc();
        return describeGc(result).join('\n');
      },
    },
  ];
}

async function wiseSuggestion(
  wise: () => TierModel,
  proto: StoredPassage,
  catalog: readonly Executor[],
): Promise<string> {
  try {
    return `the wise tier suggests: ${await suggestExecutor(wise(), proto, catalog)}`;
  } catch (error) {
    return `the wise tier could not be asked: ${formatUnknownError(error)}`;
  }
}
