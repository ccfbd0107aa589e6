import type { JsonValue } from '../../core/json.js';

/**
 * What a turn remembers of one step's observation, so that `{{stepN.field}}` can resolve from the full result
 * rather than the preview the model saw. Small observations stay inline; offloaded ones point at their entry.
 */
export type StepValue =
  | { kind: 'inline'; value: unknown }
  | {
      kind: 'stored';
      /** The entry that holds the full content. */
      entryId: string;
      /**
       * The observation minus the stored part. When `storedField` is set, the entry holds that field's full
       * text (e.g. `content`) and the other fields come from here; when it is `null`, the entry holds the whole
       * observation as JSON.
       */
      shell: { [key: string]: JsonValue };
      storedField: string | null;
    };

/** One step of a turn, as the reference resolver sees it. */
export interface StepRecord {
  /** 1-based step number. */
  step: number;
  tool: string;
  value: StepValue;
}
