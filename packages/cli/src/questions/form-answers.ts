import { CliError } from '../cli-error';
import { checkValue, choicesOf, parseValue, typesOf, ValueError, type PropertySchema } from '../schema-values';

/** The `requestedSchema` of a form question: a flat object of primitive properties. */
export interface FormSchema {
  type?: string;
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

/** What `--answer` gave: field values by name, or a whole-question reply (`--answer decline` / `--answer cancel`). */
export interface PresetAnswers {
  readonly fields: ReadonlyMap<string, string>;
  readonly reply?: 'decline' | 'cancel';
}

/** Reads the `--answer` words: `name=value` for a field, `decline` or `cancel` for every question. */
export function readPresetAnswers(words: readonly string[]): PresetAnswers {
  const fields = new Map<string, string>();
  let reply: 'decline' | 'cancel' | undefined;
  for (const word of words) {
    if (word === 'decline' || word === 'cancel') {
      reply = word;
      continue;
    }
    const eq = word.indexOf('=');
    if (eq <= 0)
      throw new CliError(
        `--answer ${word}: write it as name=value (for example --answer confirm=yes), or --answer decline / --answer cancel`
      );
    fields.set(word.slice(0, eq), word.slice(eq + 1));
  }
  return { fields, reply };
}

/** The fields of a question that `--answer` answered (read against their schema), and those it left open. */
export interface PresetOutcome {
  readonly content: Record<string, unknown>;
  /** Fields without a preset, required ones first. */
  readonly open: string[];
  /** Required fields without a preset. */
  readonly openRequired: string[];
}

/**
 * Applies the presets to a form: each preset value read against its field's schema (a value
 * that does not fit throws a {@link CliError} naming the field); what stays open is asked at
 * the prompt, or, without a terminal, makes the question declined.
 */
export function applyPresets(schema: FormSchema, presets: PresetAnswers): PresetOutcome {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const content: Record<string, unknown> = {};
  const open: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const text = presets.fields.get(name);
    if (text === undefined) {
      open.push(name);
      continue;
    }
    try {
      content[name] = parseValue(name, property, text);
    } catch (error) {
      if (error instanceof ValueError) throw new CliError(`--answer ${error.message}`);
      throw error;
    }
  }
  open.sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  return { content, open, openRequired: open.filter((name) => required.has(name)) };
}

/**
 * Checks what was typed for one field, for the prompt's `validate`: `true`, or the message
 * to show (the field's name and what fits). An empty answer to an optional field is fine (it
 * is left out).
 */
export function validateFieldText(name: string, schema: PropertySchema, text: string, required: boolean): true | string {
  if (text === '' && !required) return true;
  if (text === '' && required && !typesOf(schema).includes('string')) return `${name} is required`;
  try {
    parseValue(name, schema, text);
    return true;
  } catch (error) {
    if (error instanceof ValueError) return error.message;
    throw error;
  }
}

/** Checks a chosen list (multi-select) against its bounds, for the prompt's `validate`. */
export function validateChoices(name: string, schema: PropertySchema, values: unknown[]): true | string {
  try {
    checkValue(name, schema, values);
    return true;
  } catch (error) {
    if (error instanceof ValueError) return error.message;
    throw error;
  }
}

/** The options of a multi-select field (`type: array` with `items.enum` or `items.anyOf`), or undefined. */
export function multiSelectChoices(schema: PropertySchema): Array<{ value: unknown; title: string }> | undefined {
  return typesOf(schema).includes('array') && schema.items ? choicesOf(schema.items) : undefined;
}

/** What a field accepts, for the prompt's hint: `(integer, 1–100)`, `(email)`, `(at most 20 characters)`. */
export function fieldHint(schema: PropertySchema): string {
  const parts: string[] = [];
  const type = typesOf(schema)[0];
  if (type === 'integer' || type === 'number') {
    parts.push(type);
    const low = schema.minimum ?? schema.exclusiveMinimum;
    const high = schema.maximum ?? schema.exclusiveMaximum;
    if (low !== undefined && high !== undefined) parts.push(`${low}–${high}`);
    else if (low !== undefined) parts.push(`≥ ${low}`);
    else if (high !== undefined) parts.push(`≤ ${high}`);
  }
  if (schema.format) parts.push(schema.format);
  if (schema.minLength !== undefined && schema.maxLength !== undefined) parts.push(`${schema.minLength}–${schema.maxLength} characters`);
  else if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  else if (schema.minLength !== undefined && schema.minLength > 0) parts.push(`at least ${schema.minLength} characters`);
  return parts.length ? `(${parts.join(', ')})` : '';
}
