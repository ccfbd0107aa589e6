/**
 * `llm-scratchpad-runtime/cli`: the runtime's commands for the `scratchpad` CLI (`run`, `executor`, `mnestome`,
 * `scheduler`). The CLI of llm-scratchpad lists them and imports this module when one of them runs.
 */
export { registerExecutorCommand } from './executor-command.js';
export { registerMnestomeCommand } from './mnestome-command.js';
export { registerRunCommand } from './run-command.js';
export { registerSchedulerCommand } from './scheduler-command.js';
