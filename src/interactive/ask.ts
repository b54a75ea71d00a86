import type { JsonSchema } from '../types/core';

/** A string format the elicitation schema allows. */
export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

/**
 * One field of a form request: a primitive schema of the protocol's restricted
 * elicitation schema. `T` is the type `readInput` returns for it.
 */
export abstract class FieldDescriptor<T> {
  /** Phantom: the answer's type. */
  declare readonly __answer?: T;
  /** The field's schema, built up by the chained calls. */
  protected readonly spec: JsonSchema;
  /** Set by `optional()`. */
  protected isOptional = false;

  constructor(spec: JsonSchema) {
    this.spec = spec;
  }

  /** A short label for the field. */
  title(title: string): this {
    this.spec.title = title;
    return this;
  }

  /** The value the client pre-fills. */
  default(value: T): this {
    this.spec.default = value;
    return this;
  }

  /** The user may leave it empty (it is required by default). */
  optional(): FieldDescriptor<T | undefined> {
    this.isOptional = true;
    return this as FieldDescriptor<T | undefined>;
  }

  /** The wire schema of this field and whether it is required. */
  toSchema(): {
    /** A copy of the field's schema, as sent in `requestedSchema.properties`. */
    schema: JsonSchema;
    /** Whether the field goes in `requestedSchema.required` (true unless `optional()` was called). */
    required: boolean;
  } {
    return { schema: { ...this.spec }, required: !this.isOptional };
  }
}

/** A string field. */
export class StringField extends FieldDescriptor<string> {
  /** The fewest characters accepted. */
  minLength(n: number): this {
    this.spec.minLength = n;
    return this;
  }
  /** The most characters accepted. */
  maxLength(n: number): this {
    this.spec.maxLength = n;
    return this;
  }
  /** The format the answer must have (`email`, `uri`, `date`, `date-time`). */
  format(format: StringFormat): this {
    this.spec.format = format;
    return this;
  }
}

/** A number or integer field. */
export class NumberField extends FieldDescriptor<number> {
  /** The smallest value accepted. */
  min(n: number): this {
    this.spec.minimum = n;
    return this;
  }
  /** The largest value accepted. */
  max(n: number): this {
    this.spec.maximum = n;
    return this;
  }
}

/** A yes/no field. */
export class BooleanField extends FieldDescriptor<boolean> {}

/** A single choice among values. */
export class EnumField<V extends string> extends FieldDescriptor<V> {
  /**
   * Display names in the deprecated `enumNames` form (2025-era clients that predate titled
   * `oneOf` options); one per value, in order. Prefer `ask.enum({ value: 'Title' }, …)`.
   */
  enumNames(names: readonly string[]): this {
    const values = this.spec.enum as unknown[] | undefined;
    if (!values || values.length !== names.length) throw new TypeError('enumNames needs plain enum values and one name per value.');
    this.spec.enumNames = [...names];
    return this;
  }
}

/** Several choices among values. */
export class MultiSelectField<V extends string> extends FieldDescriptor<V[]> {
  /** The fewest choices accepted. */
  minItems(n: number): this {
    this.spec.minItems = n;
    return this;
  }
  /** The most choices accepted. */
  maxItems(n: number): this {
    this.spec.maxItems = n;
    return this;
  }
}

/** Values offered, either plain or with a title each. */
export type Choices<V extends string> = readonly V[] | Readonly<Record<V, string>>;

function choiceSchema<V extends string>(choices: Choices<V>): JsonSchema {
  if (Array.isArray(choices)) return { enum: [...choices] };
  return { oneOf: Object.entries(choices).map(([value, title]) => ({ const: value, title })) };
}

/**
 * Field descriptors for `requireInput.elicit`. Each becomes one property of the form's
 * `requestedSchema`; answers are validated against it again on the server.
 *
 * @example
 * ```ts
 * requireInput.elicit('Adjust invoice 7', {
 *   reason: ask.enum(['discount', 'error', 'goodwill'], 'Why?'),
 *   amount: ask.number('Amount in dollars').min(0.01).max(120)
 * });
 * ```
 */
export const ask = {
  /** A text field; narrow it with `.minLength`, `.maxLength`, `.format`. */
  string: (description: string) => new StringField({ type: 'string', description }),
  /** A number field; bound it with `.min`, `.max` (inclusive). */
  number: (description: string) => new NumberField({ type: 'number', description }),
  /** A whole-number field; bound it with `.min`, `.max` (inclusive). */
  integer: (description: string) => new NumberField({ type: 'integer', description }),
  /** A yes / no field. */
  boolean: (description: string) => new BooleanField({ type: 'boolean', description }),
  /** One of `values`; pass `{ value: 'Title' }` for titled options. */
  enum: <V extends string>(values: Choices<V>, description: string) =>
    new EnumField<V>({ type: 'string', description, ...choiceSchema(values) }),
  /** Any number of `values` (multi-select). */
  multiSelect: <V extends string>(values: Choices<V>, description: string) => {
    const items = Array.isArray(values)
      ? { type: 'string', enum: [...values] }
      : { anyOf: Object.entries(values).map(([value, title]) => ({ const: value, title })) };
    return new MultiSelectField<V>({ type: 'array', description, items });
  }
};

/** A form's fields by name. */
export type Fields = Record<string, FieldDescriptor<unknown>>;

/** The answers a form yields, typed from its fields. */
export type AnswersOf<F extends Fields> = { [K in keyof F]: F[K] extends FieldDescriptor<infer T> ? T : never };
