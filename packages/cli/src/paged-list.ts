import { CliError, ExitCode } from './cli-error';
import type { Connection } from './connection';

/** Results read as they came: the SDK's parsed listings drop fields they do not know (a tool's `execution`, for one). */
const RAW = { '~standard': { version: 1 as const, vendor: 'mcpfusion-cli', validate: (value: unknown) => ({ value }) } };

/** Pages read at most: a bound for a server whose cursors never end. */
const MAX_PAGES = 1000;

/** A paginated list method of the protocol and the field of its result that holds the items. */
export type ListMethod =
  | { method: 'tools/list'; key: 'tools' }
  | { method: 'prompts/list'; key: 'prompts' }
  | { method: 'resources/list'; key: 'resources' }
  | { method: 'resources/templates/list'; key: 'resourceTemplates' };

/**
 * Every item of a paginated list, page by page (following `nextCursor`), as the server sent
 * them, through the SDK client's own request path. What the server sends is data: items that
 * are not objects are dropped, and a cursor seen twice (or a thousand pages) is a protocol error.
 *
 * @example
 * const prompts = await listEvery(connection, { method: 'prompts/list', key: 'prompts' });
 */
export async function listEvery<T extends object = Record<string, unknown>>(
  connection: Pick<Connection, 'client'>,
  { method, key }: ListMethod
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages === MAX_PAGES) throw new CliError(`${method}: more than ${MAX_PAGES} pages; stopped`, ExitCode.PROTOCOL_ERROR);
    const page = (await connection.client.request({ method, params: cursor ? { cursor } : {} }, RAW)) as Record<string, unknown>;
    const listed = page?.[key];
    if (Array.isArray(listed)) items.push(...listed.filter((item): item is T => typeof item === 'object' && item !== null));
    const next = page?.nextCursor;
    if (typeof next !== 'string' || next === '') return items;
    if (seen.has(next)) throw new CliError(`${method}: the server sent the cursor ${JSON.stringify(next)} twice`, ExitCode.PROTOCOL_ERROR);
    seen.add(next);
    cursor = next;
  }
}
