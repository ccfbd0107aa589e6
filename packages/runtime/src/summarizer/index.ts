export { createModelSummarizer, SUMMARIZER_SYSTEM_PROMPT } from './model-summarizer.js';
