/** The mnestome (seed 002, ch. 12): passages between executors, recorded from piping and aged daily. */
export {
  buildDesiredSignature,
  type DesiredSignature,
  parseDesiredSignature,
  type SignatureInput,
  signatureWords,
} from './desired-signature.js';
export {
  type AgerResult,
  defaultMnestomePath,
  Mnestome,
  type Passage,
  type PassingInput,
  type StoredPassage,
} from './mnestome.js';
export { DAY_MS, MNESTOME } from './mnestome-constants.js';
