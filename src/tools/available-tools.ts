import type { SessionScratchpad } from '../service/scratchpad.js';
import type { ScratchpadTool } from './tool.js';
import { TOOL_NAMES } from './tool-names.js';

/**
 * The tools to offer a model now (seed 000 §7): the read tool only once there is something to read — entries of
 * the session, or of the turn when `turn` is given — so it appears in the very step the first offload notice
 * does and adds no noise before. Call it before every model call.
 */
export async function availableTools(
  tools: readonly ScratchpadTool[],
  options: { session: SessionScratchpad; turn?: string },
): Promise<ScratchpadTool[]> {
  if (!tools.some((tool) => tool.name === TOOL_NAMES.read)) return [...tools];
  const { entries } = await options.session.list({
    limit: 1,
    ...(options.turn === undefined ? {} : { turn: options.turn }),
  });
  return entries.length > 0 ? [...tools] : tools.filter((tool) => tool.name !== TOOL_NAMES.read);
}
