import type { SerializeOn } from './types';

/** The `serializeOn` option of a mutation, checked: `'app'` (default), `'tool'` or a key function; actions have none. */
export function serializeOption(where: string, kind: string, value: unknown, problems: string[]): SerializeOn | undefined {
  if (value === undefined) return kind === 'mutation' ? 'app' : undefined;
  if (kind !== 'mutation') {
    problems.push(`${where}: serializeOn is an option of @Mutation only (actions are never serialized): remove it.`);
    return undefined;
  }
  if (value === 'app' || value === 'tool' || typeof value === 'function') return value as SerializeOn;
  problems.push(
    `${where}: serializeOn must be 'app', 'tool' or a function of the input that returns its keys; got ${JSON.stringify(value)}.`
  );
  return undefined;
}
