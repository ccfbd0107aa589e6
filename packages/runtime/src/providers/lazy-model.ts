import type { GenerateOptions, GenerateResult, LanguageModel } from '../model/language-model.js';

/**
 * A {@link LanguageModel} whose provider module (and so its SDK) is imported on the first request: `load` runs
 * once, and again after a failed load. `provider` and `modelId` are known without it.
 */
export function lazyLanguageModel(
  identity: { provider: string; modelId: string },
  load: () => Promise<LanguageModel>,
): LanguageModel {
  let loaded: Promise<LanguageModel> | undefined;
  const model = () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  return {
    specificationVersion: 'v1',
    provider: identity.provider,
    modelId: identity.modelId,
    async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
      return (await model()).doGenerate(options);
    },
  };
}
