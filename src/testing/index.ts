/**
 * Test utilities, exported as `agent-scratchpad/test`: the store contract suite every backend must pass (it
 * needs vitest), and fake provider servers that speak the Ollama, OpenAI and Anthropic wire protocols.
 */
export * from './fake-servers/index.js';
export { runStoreContract, type StoreContractOptions } from './store-contract.js';
