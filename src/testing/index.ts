/**
 * Test utilities, exported as `llm-scratchpad/test`: the store contract suite every backend must pass (it
 * needs vitest), and fake provider servers that speak the Ollama, OpenAI and Anthropic wire protocols.
 */
// biome-ignore-all assist/source/organizeImports: one export per statement, each with its TSDoc, in reading order

/** Runs the store contract (through the service and on the driver directly) against your driver, in vitest. */
export { runStoreContract, type StoreContractOptions } from './store-contract.js';
/** A fake Ollama server on 127.0.0.1 that replays a script and records every request. */
export { type FakeOllamaOptions, startFakeOllama } from './fake-servers/fake-ollama.js';
/** A fake OpenAI-compatible server (chat completions and responses) that replays a script. */
export { type FakeOpenAIOptions, startFakeOpenAI } from './fake-servers/fake-openai.js';
/** A fake Anthropic Messages server that replays a script. */
export { type FakeAnthropicOptions, startFakeAnthropic } from './fake-servers/fake-anthropic.js';
/** The URL of a local port nothing listens on, for "provider unreachable" cases. */
export { closedPortURL } from './fake-servers/closed-port.js';
/** What a fake server is and replies; the script it replays. */
export type { FakeResponse, FakeServer } from './fake-servers/fake-http-server.js';
export type {
  FakeBodyReply,
  FakeErrorReply,
  FakeMessageReply,
  FakeReply,
  FakeRequest,
  FakeScriptStep,
  FakeToolCall,
} from './fake-servers/fake-script.js';
