import type { Command } from 'llm-scratchpad/cli';
import type { Mnestome } from '../mnestome/mnestome.js';
import type { CliContext } from 'llm-scratchpad/cli';
import { table } from 'llm-scratchpad/cli';

/** `scratchpad mnestome list [--json] | ager`: the passages between executors (seed 002, ch. 12). */
export function registerMnestomeCommand(program: Command, context: CliContext): void {
  const mnestome = program
    .command('mnestome')
    .description(
      "which executor's output was piped into which (the mnestome); ager: let rarely used passages fade",
    );

  mnestome
    .command('list')
    .description('list passages and proto-mnests, heaviest first')
    .action(async () => {
      await withMnestome(context, async (opened) => {
        const passages = await opened.list();
        context.print(
          passages.length === 0
            ? `(no passages in ${opened.path}: they appear when a turn passes one step's output to another)`
            : table(
                passages.map((passage) => [
                  passage.src,
                  passage.dst,
                  passage.weight.toFixed(4),
                  String(passage.uses),
                  passage.last_used_at.replace(/\.\d+Z$/, 'Z'),
                  passage.dst_exists
                    ? passage.state
                    : `proto: wants ${passage.desired_signature?.name ?? passage.dst}(${(passage.desired_signature?.arg_keys ?? []).join(', ')})`,
                ]),
                ['SRC', 'DST', 'WEIGHT', 'USES', 'LAST USED', 'KIND'],
              ),
          passages.map(({ state: _state, ...passage }) => passage),
        );
      });
    });

  mnestome
    .command('ager')
    .description('run apply_ager now: decay every passage, demote weak ones, purge stale proto-mnests')
    .action(async () => {
      await withMnestome(context, async (opened) => {
        const result = await opened.applyAger();
        context.print(
          `aged ${opened.path}: ${result.decayed} decayed, ${result.demoted} demoted, ${result.purged} purged`,
          result,
        );
      });
    });
}

async function withMnestome(context: CliContext, use: (mnestome: Mnestome) => Promise<void>): Promise<void> {
  const mnestome = await import('../mnestome/mnestome.js');
  const opened = mnestome.Mnestome.open(mnestome.defaultMnestomePath(context.env));
  try {
    await use(opened);
  } finally {
    opened.close();
  }
}
