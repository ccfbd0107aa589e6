import { defaultSandboxSettings, type SandboxSettings } from '../sandbox/sandbox-settings.js';
import { defaultJudgeSettings, type JudgeSettings } from '../vaglio/judge-settings.js';
import { defaultHybridSettings, type HybridSettings } from './hybrid-settings.js';
import { defaultSummarySettings, type SummarySettings } from './summary-settings.js';

export { TIERS, type Tier } from './tier.js';

/** Providers a tier can use. `openai` is any OpenAI-compatible chat-completions endpoint. */
export type ProviderName = 'ollama' | 'openai' | 'anthropic';

/** The provider names accepted in the config file and on the command line, and what they mean. */
export const PROVIDER_ALIASES: Readonly<Record<string, ProviderName>> = {
  ollama: 'ollama',
  openai: 'openai',
  'openai-compatible': 'openai',
  anthropic: 'anthropic',
};

/** How the planner loops (seed 002): `local` multistep, `online` single-shot, `hybrid` local with escalation. */
export type RuntimeMode = 'local' | 'online' | 'hybrid';

/** One `[runtime.llm.<tier>]` section. */
export interface TierSettings {
  provider: ProviderName;
  model: string;
  /** Ollama's `think` flag; unset leaves the model's default. */
  think?: boolean;
  /** `base_url`: the server; unset uses the provider's environment variable or default. */
  baseURL?: string;
  /** `api_key_env`: the environment variable holding the API key (the key itself never goes in the file). */
  apiKeyEnv?: string;
  temperature?: number;
  /** `max_output_tokens`. */
  maxOutputTokens?: number;
  /** `max_retries`: SDK retries on connection errors and 5xx (OpenAI, Anthropic). */
  maxRetries?: number;
  /** `timeout_ms`: time limit of one model request, retries included (the provider's default: 120 s). */
  timeoutMs?: number;
  /** `prompt_file`: the tier's own prompt, replacing the shipped one (absolute; relative paths in the file are resolved against its folder). */
  promptFile?: string;
}

/** The runtime's configuration, as read from `config.toml` (or the defaults when there is none). */
export interface RuntimeConfig {
  /** The file it was read from; `undefined` when no file existed and the defaults apply. */
  path: string | undefined;
  mode: RuntimeMode;
  /** `cap_steps`: maximum steps per turn. */
  capSteps: number;
  /** `cap_same_executor`: maximum calls of one executor per turn. */
  capSameExecutor: number;
  /** The configured tiers; `fast` always exists, missing higher tiers alias down (see `resolveTier`). */
  llm: { fast: TierSettings } & Partial<Record<'middle' | 'wise', TierSettings>>;
  /** `[runtime.sandbox]`: the operating-system sandbox around executor calls. */
  sandbox: SandboxSettings;
  /** The whole parsed file, for the sections other components read. */
  raw: Record<string, unknown>;
  /** `escalate_tier`: two failed validations of a step move the rest of the turn one tier up. */
  escalateTier: boolean;
  /** `scratchpad_ttl_seconds`: lifetime of the entries a turn offloads (seed 000: one hour). */
  scratchpadTtlSeconds: number;
  /**
   * `max_stored_bytes`: the most bytes one executor call streams into the store (a file `fs_read` reads, a
   * command's output, a response body); default 1 GiB. A result it cuts says so on its first line.
   */
  maxStoredBytes: number;
  /** `[runtime.hybrid]`: when a hybrid turn goes online. */
  hybrid: HybridSettings;
  /** `[runtime.vaglio]`: the judge (`rules`, `model`, `both`) and its budget. */
  vaglio: JudgeSettings;
  /** `[runtime.summaries]`: a model-written summary as the preview of large text outputs (off by default). */
  summaries: SummarySettings;
}

/** The model each provider uses when a section names none (`openai` has no default: servers differ). */
export const DEFAULT_MODELS: Readonly<Partial<Record<ProviderName, string>>> = {
  ollama: 'qwen3:8b',
  anthropic: 'claude-sonnet-4-6',
};

/** The fast tier used when the file has none: local Qwen3 8B with thinking off, as in seed 002. */
export const DEFAULT_FAST_TIER: TierSettings = { provider: 'ollama', model: 'qwen3:8b', think: false };

/** Defaults of the `[runtime]` keys. */
export const RUNTIME_DEFAULTS = {
  mode: 'local',
  capSteps: 5,
  capSameExecutor: 2,
  escalateTier: false,
  scratchpadTtlSeconds: 3600,
  maxStoredBytes: 1024 ** 3,
} as const satisfies Pick<
  RuntimeConfig,
  'mode' | 'capSteps' | 'capSameExecutor' | 'escalateTier' | 'scratchpadTtlSeconds' | 'maxStoredBytes'
>;

/** The configuration used when there is no config file. */
export function defaultRuntimeConfig(): RuntimeConfig {
  return {
    path: undefined,
    ...RUNTIME_DEFAULTS,
    llm: { fast: { ...DEFAULT_FAST_TIER } },
    sandbox: defaultSandboxSettings(),
    raw: {},
    hybrid: defaultHybridSettings(),
    vaglio: defaultJudgeSettings(),
    summaries: defaultSummarySettings(),
  };
}
