/**
 * `llm-scratchpad/ui`: the local web inspector, served in-process (`scratchpad ui` serves it from the CLI).
 *
 * Every export below is deliberate (test/public-api.test.ts pins the list).
 */
export { type ServeUiOptions, serveUi, type UiServer } from './serve-ui.js';
