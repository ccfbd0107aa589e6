import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ScratchpadError } from 'llm-scratchpad';
import { scratchpadDataDir } from 'llm-scratchpad/extension';
import type { EnvironmentVariables } from '../executors/xdg-dirs.js';
import type { ModelCallLog } from '../model/model-call.js';
import { type GuardEnvironment, runGuard } from './guard.js';
import { createJudgeBudget, type JudgeBudget } from './judge-budget.js';
import type { JudgeSetting } from './judge-settings.js';
import type { ModelJudge } from './model-judge.js';
import { type ModelOutcome, modelVerdict } from './model-verdict.js';
import { scoreAlignment } from './rules-judge.js';
import type { VaglioAction, Verdict } from './vaglio-action.js';
import { appendVaglioLog, loggedArgumentKeys } from './vaglio-log.js';

/** Default judge threshold: actions scoring below it are denied (seed 002, ch. 8). */
export const DEFAULT_JUDGE_THRESHOLD = 0.3;
/** Environment variable that sets the judge threshold. */
export const JUDGE_THRESHOLD_VARIABLE = 'SCRATCHPAD_JUDGE_THRESHOLD';

/** Options for {@link createVaglio}. */
export interface VaglioConfig {
  /** Judge threshold in [0, 1]; default `$SCRATCHPAD_JUDGE_THRESHOLD`, else 0.30. */
  threshold?: number;
  /** Folder of the monthly JSONL log; default `$XDG_DATA_HOME/scratchpad/vaglio`; `false` turns logging off. */
  logDir?: string | false;
  now?: () => Date;
  env?: EnvironmentVariables;
  /** The user's home folder (default `$HOME`, else the OS's). */
  home?: string;
  /** The user's login name (default the OS's, else `$USER`). */
  user?: string;
  /** Where actions run when they say nothing else; default `process.cwd()`. */
  cwd?: string;
  /** Called when a log line cannot be written; the verdict stands either way. Default: a process warning. */
  onLogError?: (error: unknown) => void;
  /** Which judge {@link Vaglio.review} uses after the guard (default `rules`). */
  judge?: JudgeSetting;
  /** The model judge, required by `model` and `both`. */
  modelJudge?: ModelJudge;
  /** Model judge calls per turn (default 10); past it, the rule judge decides (`rules-fallback`). */
  maxJudgeCallsPerTurn?: number;
}

/** The constitutional evaluator: nothing reaches an executor without its verdict. */
export interface Vaglio {
  readonly threshold: number;
  /** The judge {@link review} uses after the guard. */
  readonly judgeSetting: JudgeSetting;
  /** Judges one action: guard first (no score when it blocks), then the rule-based judge. Logs the verdict. */
  judge(action: VaglioAction): Verdict;
  /**
   * Judges one action the way a turn does: guard first, then the configured judge (`rules`, `model`, `both`).
   * A model judge that fails, times out, answers nonsense or has no budget left in `budget` gives way to the rule
   * judge (`judge_kind: 'rules-fallback'`). Never rejects, except when `signal` aborts. Logs the verdict.
   */
  review(action: VaglioAction, budget?: JudgeBudget, signal?: AbortSignal): Promise<Verdict>;
  /** A fresh budget of model judge calls for one turn. */
  turnBudget(): JudgeBudget;
}

/**
 * Creates the vaglio of seed 002, ch. 8: a guard that denies protected paths and (for `code:exec`) destructive
 * commands, then a rule-based judge that denies actions scoring below the threshold. Every verdict is appended
 * to `<logDir>/YYYY-MM.jsonl` with the argument keys only, never their values. Throws `CONFIG_INVALID` when the
 * threshold (option or environment) is not a number in [0, 1].
 */
export function createVaglio(config: VaglioConfig = {}): Vaglio {
  const env = config.env ?? process.env;
  const threshold = resolveThreshold(config.threshold, env);
  const logDir = config.logDir === undefined ? join(scratchpadDataDir(env), 'vaglio') : config.logDir;
  const now = config.now ?? (() => new Date());
  const environment: GuardEnvironment = {
    home: config.home ?? (env.HOME || homedir()),
    user: config.user ?? currentUser(env),
    cwd: config.cwd ?? process.cwd(),
  };
  let warned = false;
  const onLogError =
    config.onLogError ??
    ((error: unknown) => {
      if (warned) return;
      warned = true;
      process.emitWarning(`vaglio log not written: ${(error as Error).message}`);
    });

  function decide(action: VaglioAction, ts: string): Verdict {
    const finding = runGuard(action, environment);
    if (finding) {
      const what = {
        'sensitive-path': 'mentions a protected path',
        'destructive-command': 'holds a destructive command',
        'unresolved-expansion': 'builds a command or path at run time',
      }[finding.kind];
      return {
        approved: false,
        reason: `guard: argument "${finding.argument}" ${what} (${finding.label})`,
        score: null,
        blocked_by: 'guard',
        judge_kind: 'rules',
        ts,
        rule: finding.rule,
      };
    }
    const { score, adjustments } = scoreAlignment(action);
    const why = adjustments.map(
      (item) => `${item.label} (${item.delta > 0 ? '+' : ''}${item.delta.toFixed(2)})`,
    );
    const detail = why.length > 0 ? `: ${why.join('; ')}` : '';
    const approved = score >= threshold;
    const comparison = approved ? '>=' : 'below';
    return {
      approved,
      reason: `judge: alignment ${score.toFixed(2)} ${comparison} threshold ${threshold.toFixed(2)}${detail}`,
      score,
      blocked_by: approved ? null : 'judge',
      judge_kind: 'rules',
      ts,
    };
  }

  const setting = config.judge ?? 'rules';
  if (setting !== 'rules' && !config.modelJudge) {
    throw new ScratchpadError('CONFIG_INVALID', `judge = "${setting}" needs a model judge`, {
      hint: 'Pass modelJudge (createModelJudge over the middle tier), or use judge = "rules".',
    });
  }
  const maxCalls = config.maxJudgeCallsPerTurn ?? 10;

  function record(action: VaglioAction, verdict: Verdict, date: Date): Verdict {
    if (logDir !== false) {
      try {
        appendVaglioLog(logDir, date, {
          ts: verdict.ts,
          executor: action.executor,
          capabilities: [...(action.capabilities ?? [])],
          arg_keys: loggedArgumentKeys(action.args),
          approved: verdict.approved,
          score: verdict.score,
          blocked_by: verdict.blocked_by,
          judge_kind: verdict.judge_kind,
          rule: verdict.rule ?? null,
          reason: verdict.reason,
        });
      } catch (error) {
        onLogError(error);
      }
    }
    return verdict;
  }

  async function askModel(
    action: VaglioAction,
    budget: JudgeBudget,
    signal?: AbortSignal,
  ): Promise<ModelOutcome> {
    if (budget.used >= budget.max)
      return { failure: `the turn's budget of ${budget.max} model judge calls is used up` };
    budget.used += 1;
    try {
      return { judgement: await (config.modelJudge as ModelJudge).score(action, signal) };
    } catch (error) {
      if (signal?.aborted) throw error;
      if (!ScratchpadError.isInstance(error)) throw error;
      const timeout = error.details.reason === 'timeout' ? ', no answer in time' : '';
      const call = error.details.call as ModelCallLog | undefined;
      return { failure: `the model judge failed (${error.code}${timeout})`, ...(call ? { call } : {}) };
    }
  }

  return {
    threshold,
    judgeSetting: setting,
    judge(action: VaglioAction): Verdict {
      const date = now();
      return record(action, decide(action, date.toISOString()), date);
    },
    async review(action, budget = createJudgeBudget(maxCalls), signal) {
      const date = now();
      const rules = decide(action, date.toISOString());
      if (setting === 'rules' || rules.blocked_by === 'guard') return record(action, rules, date);
      const outcome = await askModel(action, budget, signal);
      return record(action, modelVerdict(rules, outcome, setting, threshold), date);
    },
    turnBudget: () => createJudgeBudget(maxCalls),
  };
}

function resolveThreshold(option: number | undefined, env: EnvironmentVariables): number {
  const raw = option ?? env[JUDGE_THRESHOLD_VARIABLE];
  if (raw === undefined || raw === '') return DEFAULT_JUDGE_THRESHOLD;
  const value = typeof raw === 'number' ? raw : Number(raw.trim());
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw new ScratchpadError(
      'CONFIG_INVALID',
      `judge threshold must be a number in [0, 1], got ${JSON.stringify(raw)}`,
      {
        hint: `set ${JUDGE_THRESHOLD_VARIABLE} to a value such as 0.30, or unset it for the default`,
      },
    );
  }
  return value;
}

function currentUser(env: EnvironmentVariables): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.LOGNAME ?? 'user';
  }
}
