import { formatBytes } from '../../core/format.js';
import type { Scratchpad } from '../../scratchpad/scratchpad.js';
import { compose } from '../compose/compose.js';
import type { Executor } from '../executors/executor.js';
import type { Mnestome } from '../mnestome/mnestome.js';
import { MNESTOME } from '../mnestome/mnestome-constants.js';
import type { TaskDefinition } from './scheduler.js';

/** What the built-in tasks work on, each opened when its task runs. */
export interface BuiltinTaskDependencies {
  /** The mnestome (the task closes it). */
  openMnestome: () => Mnestome;
  /** The verified catalog: a suggested chain must be made of signed executors. */
  loadCatalog: () => Promise<readonly Executor[]>;
  /** The store whose expired entries `gc` removes. */
  scratchpad: () => Promise<Scratchpad>;
}

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
        withMnestome((mnestome) => {
          const result = mnestome.applyAger(now);
          return `${result.decayed} decayed, ${result.demoted} demoted, ${result.purged} purged`;
        }),
    },
    {
      name: 'synt_suggest',
      schedule: 'daily@04:30',
      description: `compose-only synthesis for each recurring proto-mnest (uses ≥ ${MNESTOME.recurringMinUses}, weight ≥ ${MNESTOME.recurringMinWeight.toFixed(2)})`,
      run: () =>
        withMnestome(async (mnestome) => {
          const protos = mnestome.recurringProtos();
          if (protos.length === 0)
            return `no recurring proto-mnest (uses ≥ ${MNESTOME.recurringMinUses}, weight ≥ ${MNESTOME.recurringMinWeight.toFixed(2)})`;
          const catalog = await dependencies.loadCatalog();
          return protos
            .map((proto) => {
              const head = `${proto.src} → ${proto.dst} (uses ${proto.uses}, weight ${proto.weight.toFixed(2)})`;
              if (!proto.desired_signature) return `${head}: no desired signature recorded`;
              const outcome = compose({
                sources: [proto.src],
                signature: proto.desired_signature,
                mnestome,
                catalog,
              });
              return outcome.state === 'composed'
                ? `${head}: composed, chain ${outcome.chain.join(' → ')}, first hop ${outcome.first_hop}`
                : `${head}: abandoned`;
            })
            .join('\n');
        }),
    },
    {
      name: 'gc',
      schedule: 'every_60_minutes',
      description: "the store's gc: expired entries, abandoned staging areas, the size cap",
      run: async () => {
        const result = await (await dependencies.scratchpad()).gc();
        return `removed ${result.removed.length} entr${result.removed.length === 1 ? 'y' : 'ies'} (${formatBytes(result.bytes)}), ${result.staging} staging area${result.staging === 1 ? '' : 's'}`;
      },
    },
  ];
}
