/** The language-model spec the planner is written against, and an in-process scripted model for tests. */
export {
  type FinishReason,
  type GenerateOptions,
  type GenerateResult,
  INVALID_TOOL_ARGUMENTS,
  type InvalidToolArguments,
  invalidToolArguments,
  type LanguageModel,
  type ModelMessage,
  type ModelToolCall,
  type ModelToolDefinition,
  type ResponseFormat,
} from './language-model.js';
export type { ModelCallLog, ModelCallPurpose } from './model-call.js';
export {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedModelConfig,
  type ScriptedReply,
  type ScriptedResponse,
  type ScriptedStep,
} from './scripted-model.js';
