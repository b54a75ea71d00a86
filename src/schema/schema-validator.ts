import { ConfigurationError } from '../errors';
import type { JsonSchema } from '../types/core';
import { checkStructure, type InputValidator } from './input-validator';
import { compileSchemaCheck, type SchemaCheck } from './schema-check';

/**
 * The validator of a member described by a JSON Schema alone (a gateway's proxied tool): the
 * structure checks every input gets, then the schema; the raw arguments are the input (there is
 * no class to build). A schema this validator cannot compile (a dialect or keyword Ajv refuses)
 * is not held against the member: the structure checks still apply, and the server behind the
 * schema validates the rest itself.
 */
export function schemaValidator(schema: JsonSchema, owner: string): InputValidator {
  let check: SchemaCheck | undefined;
  try {
    check = compileSchemaCheck(schema, owner);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
  }
  return (raw) => {
    const { violations } = checkStructure(raw);
    if (violations.length > 0) return { violations };
    const refused = check?.(raw) ?? [];
    if (refused.length > 0) return { violations: refused.map(({ path, message }) => ({ path, message })) };
    return { value: raw };
  };
}
