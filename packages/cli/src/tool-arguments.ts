import { CliError } from './cli-error';
import { checkValue, parseValue, ValueError, type PropertySchema } from './schema-values';

/** The object schema of a tool's input, as `tools/list` gives it. */
export interface InputSchema {
  type?: string;
  properties?: Record<string, PropertySchema>;
  required?: string[];
  additionalProperties?: boolean | PropertySchema;
}

/**
 * Builds the arguments of a tool call from `--json '{…}'` (a base object) and `--arg key=value`
 * pairs (each read against the property's schema, later ones win), then checks every value
 * and the required properties. Throws a {@link CliError} naming the property that does not fit,
 * so nothing is sent.
 */
export function buildToolArguments(
  toolName: string,
  schema: InputSchema | undefined,
  pairs: readonly string[],
  json?: string
): Record<string, unknown> {
  const properties = schema?.properties ?? {};
  const closed = schema?.additionalProperties === false;
  const args: Record<string, unknown> = json === undefined ? {} : parseJsonArguments(toolName, json);
  try {
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new CliError(`--arg ${pair}: write it as name=value (for example --arg id=3)`);
      const name = pair.slice(0, eq);
      const text = pair.slice(eq + 1);
      const property = properties[name];
      if (!property && closed) throw unknownProperty(toolName, name, properties);
      args[name] = parseValue(name, property ?? {}, text);
    }
    for (const [name, value] of Object.entries(args)) {
      const property = properties[name];
      if (!property) {
        if (closed) throw unknownProperty(toolName, name, properties);
        continue;
      }
      checkValue(name, property, value);
    }
  } catch (error) {
    if (error instanceof ValueError) throw new CliError(`${toolName}: argument ${error.message}`);
    throw error;
  }
  const missing = (schema?.required ?? []).filter((name) => !(name in args));
  if (missing.length > 0)
    throw new CliError(
      `${toolName}: missing required argument${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (pass ${missing.map((n) => `--arg ${n}=…`).join(' ')})`
    );
  return args;
}

function parseJsonArguments(toolName: string, json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new CliError(`${toolName}: --json is not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError(`${toolName}: --json must be a JSON object, like '{"id": 3}'`);
  return { ...(value as Record<string, unknown>) };
}

function unknownProperty(toolName: string, name: string, properties: Record<string, PropertySchema>): CliError {
  const known = Object.keys(properties);
  return new CliError(`${toolName}: no argument named ${name}; it takes ${known.length ? known.join(', ') : 'no arguments'}`);
}
