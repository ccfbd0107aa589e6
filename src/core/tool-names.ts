/**
 * Every tool name a model sees, in one place. snake_case, noun prefix then verb (STYLE.md); the seeds' own
 * names where a preset reproduces a seed.
 */
export const TOOL_NAMES = {
  write: 'scratchpad_write',
  read: 'scratchpad_read',
  edit: 'scratchpad_edit',
  list: 'scratchpad_list',
  delete: 'scratchpad_delete',
  search: 'scratchpad_search',
  /** Seed 001 (OpenClaw): the session-notes tool. */
  notes: 'session.scratchpad',
  /** Anthropic's memory tool (`memory_20250818`). */
  memory: 'memory',
} as const;

/** Names of the scratchpad's own tools: their results are never offloaded (reading back must not offload again). */
export const SCRATCHPAD_TOOL_NAMES: ReadonlySet<string> = new Set(Object.values(TOOL_NAMES));
