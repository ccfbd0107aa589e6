/**
 * Fake provider servers for tests: real `node:http` servers on 127.0.0.1 that speak the Ollama, OpenAI and
 * Anthropic wire protocols closely enough for the official clients, replay a script and record every request.
 */
export { closedPortURL } from './closed-port.js';
export { type FakeAnthropicOptions, startFakeAnthropic } from './fake-anthropic.js';
export type { FakeResponse, FakeServer } from './fake-http-server.js';
export { type FakeOllamaOptions, startFakeOllama } from './fake-ollama.js';
export { type FakeOpenAIOptions, startFakeOpenAI } from './fake-openai.js';
export type {
  FakeBodyReply,
  FakeErrorReply,
  FakeMessageReply,
  FakeReply,
  FakeRequest,
  FakeScriptStep,
  FakeToolCall,
} from './fake-script.js';
