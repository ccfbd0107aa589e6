import { z } from 'zod';

/** What a config key's schema tells a user who got it wrong: `<key> must be <expected>`, `Write <key> = <example>.` */
export interface ConfigFieldMeta {
  /** Completes "`key` must be …": `true or false`, `a whole number, 1 or more`. */
  readonly expected: string;
  /** The value of a correct line, as written in TOML: `true (no quotes)`, `"work"`. */
  readonly example: string;
  /** Leave the given value out of the message (it may be a secret, such as a key where its variable's name belongs). */
  readonly redact?: boolean;
}

/** The schemas of config keys, each with the words {@link parseConfigSection} reports a wrong value with. */
export const configFieldMeta = z.registry<ConfigFieldMeta>();

/**
 * Schemas for the values of `config.toml` keys, each registered with what it expects. Add a rule a schema cannot
 * say by type with `.refine(check, { message: 'at most 10', params: { hint: 'Write …' } })` before passing it
 * here: the message completes "`key` must be …".
 */
export const configField = {
  /** `true` or `false`. */
  boolean(): z.ZodBoolean {
    return z.boolean().register(configFieldMeta, { expected: 'true or false', example: 'true (no quotes)' });
  },
  /**
   * A whole number of at least `minimum` (default 1) and, when given, at most `maximum`; `example` is the value
   * the hint suggests (default ten times the minimum).
   */
  integer(minimum = 1, maximum?: number, example = `${Math.max(minimum, 1) * 10}`): z.ZodNumber {
    const schema = z.int().min(minimum);
    return (maximum === undefined ? schema : schema.max(maximum)).register(configFieldMeta, {
      expected:
        maximum === undefined
          ? `a whole number, ${minimum} or more`
          : `a whole number from ${minimum} to ${maximum}`,
      example: `${example} (no quotes)`,
    });
  },
  /** A string with more than white space in it. */
  string(): z.ZodString {
    return z
      .string()
      .refine((value) => value.trim() !== '')
      .register(configFieldMeta, { expected: 'a non-empty string', example: '"…" with quotes' });
  },
  /** One of `choices`. */
  choice<const Choice extends string>(choices: readonly Choice[]): z.ZodType<Choice> {
    return z
      .string()
      .refine((value): value is Choice => (choices as readonly string[]).includes(value))
      .register(configFieldMeta, {
        expected: `one of ${choices.map((choice) => `"${choice}"`).join(', ')}`,
        example: `"${choices[0]}"`,
      }) as unknown as z.ZodType<Choice>;
  },
  /** A list of non-empty strings, each checked by `accept` when given; `what` names the items. */
  stringList(what: string, example: string, accept?: (item: string) => boolean): z.ZodType<string[]> {
    const item = z.string().min(1);
    return z
      .array(accept ? item.refine(accept) : item)
      .register(configFieldMeta, { expected: `a list of ${what}`, example });
  },
  /** Any value the custom `schema` accepts (refine it first), registered with what it expects. */
  custom<Schema extends z.ZodType>(schema: Schema, meta: ConfigFieldMeta): Schema {
    configFieldMeta.add(schema, meta);
    return schema;
  },
};
