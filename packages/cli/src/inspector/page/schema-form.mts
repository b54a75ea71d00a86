import { el, isRecord } from './dom.mjs';

/** What the fields of a form read: the object to send, or the first problem in words. */
export type FormReading = { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly problem: string };

/** The fields of a form built from a JSON Schema, and how to read them. */
export interface SchemaFields {
  read(): FormReading;
  /** Focuses the first field (when there is one). */
  focus(): void;
}

interface FieldReader {
  /** undefined: leave the property out. */
  read(): { value?: unknown; problem?: string };
}

let nextFieldId = 1;

/** Choices of an enum: `enum`, or the titled form `oneOf: [{ const, title }]`. */
function choicesOf(schema: Record<string, unknown>): Array<{ value: unknown; title: string }> | undefined {
  if (Array.isArray(schema.enum)) {
    const titles = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({ value, title: typeof titles[i] === 'string' ? (titles[i] as string) : String(value) }));
  }
  const alternatives = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (alternatives?.length && alternatives.every((alt) => isRecord(alt) && 'const' in alt))
    return (alternatives as Array<Record<string, unknown>>).map((alt) => ({
      value: alt.const,
      title: typeof alt.title === 'string' ? alt.title : String(alt.const)
    }));
  return undefined;
}

function typeOf(schema: Record<string, unknown>): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return undefined;
}

/**
 * Builds a labelled field per property of an object schema (a tool's `inputSchema`, or a
 * question's `requestedSchema`) into `container`: the label is the property's name, the
 * description is tied to the field with `aria-describedby`. Strings, numbers, booleans and enums
 * get their own controls; anything else is JSON in a text area.
 */
export function buildSchemaFields(container: HTMLElement, schema: unknown): SchemaFields {
  container.replaceChildren();
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(isRecord(schema) && Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const readers: Array<[string, FieldReader]> = [];
  let first: HTMLElement | undefined;

  for (const [name, raw] of Object.entries(properties)) {
    const property = isRecord(raw) ? raw : {};
    const id = `field-${nextFieldId++}`;
    const isRequired = required.has(name);
    const description = [property.title, property.description].filter((part) => typeof part === 'string').join(' — ');
    const describedBy = description ? `${id}-description` : undefined;
    const label = el('label', { for: id }, name);
    const hint = describedBy ? el('small', { id: describedBy }, description) : undefined;
    const type = typeOf(property);
    const choices = choicesOf(property);
    const itemChoices = type === 'array' && isRecord(property.items) ? choicesOf(property.items) : undefined;
    const common = { id, 'aria-describedby': describedBy, ...(isRequired ? { required: '', 'aria-required': 'true' } : {}) };
    let control: HTMLElement;
    let reader: FieldReader;

    if (choices || itemChoices) {
      const multiple = Boolean(itemChoices);
      const options = (itemChoices ?? choices)!;
      const select = el('select', { ...common, ...(multiple ? { multiple: '' } : {}) });
      if (!multiple) select.append(el('option', { value: '' }, isRequired ? '(choose)' : '(not set)'));
      options.forEach((option, index) => select.append(el('option', { value: String(index) }, option.title)));
      const defaults = multiple && Array.isArray(property.default) ? property.default : [property.default];
      for (const [index, option] of options.entries())
        if (defaults.some((d) => d === option.value)) select.options[multiple ? index : index + 1].selected = true;
      control = select;
      reader = {
        read: () => {
          const picked = [...select.selectedOptions].filter((o) => o.value !== '').map((o) => options[Number(o.value)].value);
          if (multiple) return { value: picked };
          if (picked.length === 0) return isRequired ? { problem: `${name}: choose a value` } : {};
          return { value: picked[0] };
        }
      };
    } else if (type === 'boolean') {
      const box = el('input', { ...common, type: 'checkbox' });
      box.removeAttribute('required');
      box.checked = property.default === true;
      let touched = property.default !== undefined || isRequired;
      box.addEventListener('change', () => (touched = true));
      control = box;
      reader = { read: () => (touched ? { value: box.checked } : {}) };
    } else if (type === 'number' || type === 'integer') {
      const input = el('input', {
        ...common,
        type: 'number',
        step: type === 'integer' ? '1' : 'any',
        min: typeof property.minimum === 'number' ? String(property.minimum) : undefined,
        max: typeof property.maximum === 'number' ? String(property.maximum) : undefined
      });
      if (typeof property.default === 'number') input.value = String(property.default);
      control = input;
      reader = {
        read: () => {
          if (input.value.trim() === '') return isRequired ? { problem: `${name}: a number is required` } : {};
          const value = Number(input.value);
          if (!Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value)))
            return { problem: `${name}: not ${type === 'integer' ? 'an integer' : 'a number'}` };
          return { value };
        }
      };
    } else if (type === 'string') {
      const format = typeof property.format === 'string' ? property.format : '';
      const input = el('input', {
        ...common,
        type: format === 'email' ? 'email' : format === 'uri' ? 'url' : format === 'date' ? 'date' : 'text'
      });
      if (typeof property.default === 'string') input.value = property.default;
      control = input;
      reader = {
        read: () => (input.value === '' ? (isRequired ? { problem: `${name}: a value is required` } : {}) : { value: input.value })
      };
    } else {
      const area = el('textarea', { ...common, placeholder: type === 'array' ? '[ … ] (JSON)' : '{ … } (JSON)', spellcheck: 'false' });
      if (property.default !== undefined) area.value = JSON.stringify(property.default, null, 2);
      control = area;
      reader = {
        read: () => {
          if (area.value.trim() === '') return isRequired ? { problem: `${name}: a value is required (JSON)` } : {};
          try {
            return { value: JSON.parse(area.value) as unknown };
          } catch {
            return { problem: `${name}: not valid JSON` };
          }
        }
      };
    }
    first ??= control;
    const field =
      type === 'boolean'
        ? el('div', { class: 'field check' }, control, ' ', label, ...(hint ? [hint] : []))
        : el('div', { class: 'field' }, label, control, ...(hint ? [hint] : []));
    container.append(field);
    readers.push([name, reader]);
  }
  if (readers.length === 0) container.append(el('p', { class: 'muted' }, 'No arguments.'));

  return {
    read() {
      const value: Record<string, unknown> = {};
      for (const [name, reader] of readers) {
        const reading = reader.read();
        if (reading.problem) return { ok: false, problem: reading.problem };
        if ('value' in reading) value[name] = reading.value;
      }
      return { ok: true, value };
    },
    focus: () => first?.focus()
  };
}
