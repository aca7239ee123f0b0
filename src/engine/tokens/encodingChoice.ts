import type { EncodingName } from '../ports';

/**
 * Which encoding counts a model's tokens. GPT-3.5, GPT-4 and GPT-4 Turbo (and OpenAI's older
 * models, whose own encodings we do not ship, cl100k_base being the nearest) use cl100k_base;
 * GPT-4o and everything after it use o200k_base. Other vendors' tokenizers are not public, so
 * they get o200k_base, the closer of the two for modern vocabularies.
 */

/** `auto` picks from the model; an encoding name overrides it. */
export type EncodingSetting = EncodingName | 'auto';

/**
 * Model ids and families that predate GPT-4o. `gpt-4` must be the whole name or be followed by
 * `-`, so `gpt-4o`, `gpt-4.1` and `gpt-4.5` are not matched.
 */
const CL100K_MODELS =
  /(?:^|[/:])(?:gpt-3\.5|gpt-35|gpt-4(?:$|-)|text-embedding-(?:ada|3)|text-davinci|code-davinci|code-cushman|davinci|curie|babbage|ada(?:$|-))/;

/**
 * The encoding for a model.
 * @param model a VS Code language model family or id, or an API model id; it may carry a
 *   provider prefix (`openai/gpt-4`) or a fine-tune wrapper (`ft:gpt-3.5-turbo:org::id`)
 * @param setting an explicit encoding wins over the model
 */
export function chooseEncoding(model: string | undefined, setting: EncodingSetting = 'auto'): EncodingName {
  if (setting !== 'auto') return setting;
  if (model === undefined) return 'o200k_base';
  return CL100K_MODELS.test(model.trim().toLowerCase()) ? 'cl100k_base' : 'o200k_base';
}
