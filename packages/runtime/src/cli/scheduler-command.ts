import type { Command } from 'llm-scratchpad/cli';
import type { OpenScheduler } from '../scheduler/open-scheduler.js';
import type { TaskRun } from '../scheduler/scheduler.js';
import type { CliContext } from 'llm-scratchpad/cli';
import { isoTime } from 'llm-scratchpad/cli';
import { table } from 'llm-scratchpad/cli';

/**
 * `scratchpad scheduler status [--json] | tick [--now ISO] | run-now TASK | daemon`: the recurring system tasks
 * of seed 002, ch. 13 (`apply_ager`, `synt_suggest`, `gc`).
 */
export function registerSchedulerCommand(program: Command, context: CliContext): void {
  const scheduler = program
    .command('scheduler')
    .description(
      'recurring upkeep: fade unused passages (apply_ager), suggest compositions (synt_suggest), store gc',
    );

  scheduler
    .command('status')
    .description('every task with its schedule, last run, last status and next due time')
    .option('--now <time>', 'compute due times at this ISO 8601 time instead of now', isoTime)
    .action(async (flags: { now?: number }) => {
      await withScheduler(context, async ({ scheduler, state }) => {
        const now = flags.now ?? Date.now();
        const tasks = await scheduler.status(now);
        const daemon = await state.daemon();
        const stamp = (iso: string | null) => (iso === null ? '-' : iso.replace(/\.\d+Z$/, 'Z'));
        context.print(
          `${table(
            tasks.map((task) => [
              task.name,
              task.schedule,
              stamp(task.last_run_at),
              task.last_status ?? '-',
              task.next_due === null
                ? 'manual'
                : task.next_due === new Date(now).toISOString()
                  ? 'now'
                  : stamp(task.next_due),
            ]),
            ['TASK', 'SCHEDULE', 'LAST RUN', 'STATUS', 'NEXT DUE'],
          )}\ndaemon: ${daemon ? `running (process ${daemon.pid} on ${daemon.host}, since ${daemon.started_at})` : 'not running'}`,
          tasks,
        );
      });
    });

  scheduler
    .command('tick')
    .description('run every task that is due, once (cron can call this every minute)')
    .option('--now <time>', 'tick as if it were this ISO 8601 time (replay a schedule)', isoTime)
    .action(async (flags: { now?: number }) => {
      await withScheduler(context, async ({ scheduler }) => {
        const now = flags.now ?? Date.now();
        const runs = await scheduler.tick(now);
        const time = new Date(now).toISOString();
        context.print(runs.length === 0 ? `nothing due at ${time}` : runs.map(runLine).join('\n'), {
          now: time,
          runs,
        });
        reportFailures(context, runs);
      });
    });

  scheduler
    .command('run-now')
    .description('run one task now, whatever its schedule')
    .argument('<task>', 'apply_ager, synt_suggest or gc')
    .action(async (name: string) => {
      await withScheduler(context, async ({ scheduler }) => {
        const run = await scheduler.runNow(name, Date.now());
        context.print(runLine(run), run);
        reportFailures(context, [run]);
      });
    });

  scheduler
    .command('daemon')
    .description('tick now and every 60 s until SIGINT or SIGTERM (one daemon per state file)')
    .action(async () => {
      const { runSchedulerDaemon } = await import('../scheduler/scheduler-daemon.js');
      await withScheduler(context, async ({ scheduler, state }) => {
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        try {
          await runSchedulerDaemon({
            scheduler,
            state,
            signal: stop.signal,
            onStart: () =>
              context.stderr.write(
                `scheduler daemon started (process ${process.pid}) on ${state.path}: a tick now and every 60 s; stop it with SIGINT or SIGTERM\n`,
              ),
            onTick: (runs, now) => {
              for (const run of runs)
                context.stdout.write(`${new Date(now).toISOString()} ${runLine(run)}\n`);
            },
          });
          context.stderr.write('scheduler daemon stopped\n');
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      });
    });
}

async function withScheduler(
  context: CliContext,
  use: (opened: OpenScheduler) => Promise<void> | void,
): Promise<void> {
  const { openScheduler } = await import('../scheduler/open-scheduler.js');
  const opened = await openScheduler({ env: context.env, scratchpad: () => context.scratchpad() });
  try {
    await use(opened);
  } finally {
    opened.close();
  }
}

function runLine(run: TaskRun): string {
  const [first = ''] = run.output.split('\n');
  const more =
    run.output.includes('\n') && run.status === 'ok' ? `\n${indent(run.output.split('\n').slice(1))}` : '';
  return `${run.task}: ${run.status} — ${first}${more}`;
}

function indent(lines: string[]): string {
  return lines.map((line) => `  ${line}`).join('\n');
}

function reportFailures(context: CliContext, runs: readonly TaskRun[]): void {
  const failed = runs.filter((run) => run.status === 'error').map((run) => run.task);
  if (failed.length === 0) return;
  context.stderr.write(
    `scratchpad scheduler: ${failed.join(', ')} failed; the stack is in last_output (scratchpad --json scheduler status)\n`,
  );
  context.fail();
}
