/** The tool names live in `core/` so the offload policy (below this layer) can exempt them; see there. */
export { SCRATCHPAD_TOOL_NAMES, TOOL_NAMES } from '../core/tool-names.js';
