import type { Tool } from '@modelcontextprotocol/server';
import type { IndexedDocument } from './bm25-index';
import { tokenize } from './tokenize';

/**
 * How much a term counts by where it was found. A name is written to be found (`files.move`),
 * a description says what the tool does, parameters say what it works on; a parameter's own
 * description is the least telling (it often repeats the type).
 */
export const FIELD_WEIGHTS = Object.freeze({ name: 3, title: 2, description: 1, parameter: 1.5, parameterDescription: 0.5 });

/** How deep into nested object parameters the text is read, and how many properties at most (a hostile schema is bounded). */
const MAX_DEPTH = 3;
const MAX_PROPERTIES = 200;

/** A tool's listing entry as a document of weighted terms (name, title, description, parameter names and descriptions). */
export function toolDocument(tool: Tool): IndexedDocument<string> {
  const terms = new Map<string, number>();
  const add = (text: unknown, weight: number) => {
    if (typeof text !== 'string') return;
    for (const term of tokenize(text)) terms.set(term, (terms.get(term) ?? 0) + weight);
  };
  add(tool.name, FIELD_WEIGHTS.name);
  add(tool.title ?? tool.annotations?.title, FIELD_WEIGHTS.title);
  add(tool.description, FIELD_WEIGHTS.description);
  let budget = MAX_PROPERTIES;
  const walk = (schema: unknown, depth: number) => {
    const properties = propertiesOf(schema);
    if (!properties || depth > MAX_DEPTH) return;
    for (const [name, property] of Object.entries(properties)) {
      if (budget-- <= 0) return;
      add(name, FIELD_WEIGHTS.parameter);
      if (isRecord(property)) {
        add(property.description, FIELD_WEIGHTS.parameterDescription);
        add(property.title, FIELD_WEIGHTS.parameterDescription);
        walk(property, depth + 1);
        walk(property.items, depth + 1);
      }
    }
  };
  walk(tool.inputSchema, 0);
  return { key: tool.name, terms };
}

function propertiesOf(schema: unknown): Record<string, unknown> | undefined {
  if (!isRecord(schema)) return undefined;
  return isRecord(schema.properties) ? schema.properties : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
