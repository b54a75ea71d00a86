/**
 * The requests the Worker's stores send to the state object, and the check the object makes of
 * each before it touches its storage. A request reaches the object only through a binding of the
 * Worker (no public URL), but it is still checked as input: a malformed one is refused with a
 * message naming what is wrong, never half applied.
 */

/** Longest id, fingerprint or owner token accepted (ids the framework makes are far shorter). */
const MAX_ID = 512;
/**
 * Largest stored value (a task record, a round's outcome), in characters of JSON: at most 1.8 MB of UTF-8, under
 * the 2 MB a value of a SQLite-backed Durable Object holds (the template's `new_sqlite_classes` migration).
 */
export const MAX_VALUE_CHARS = 600_000;
/** Longest duration accepted (a TTL, a lease): 30 days. */
const MAX_DURATION_MS = 30 * 24 * 3_600_000;

/** One operation on the state object (the body of a POST to it, as JSON). */
export type StateRequest =
  | { op: 'consume'; id: string; ttlMs: number }
  | { op: 'claim'; id: string; fingerprint: string; owner: string; ttlMs: number; leaseMs: number }
  | { op: 'record'; id: string; owner: string; outcome: string }
  | { op: 'release'; id: string; owner: string }
  | { op: 'renew'; id: string; owner: string; leaseMs: number }
  | { op: 'task.create'; taskId: string; record: string; expiresAt: number; live: boolean }
  | { op: 'task.get'; taskId: string }
  | { op: 'task.cas'; taskId: string; expected: string; next: string; live: boolean }
  | { op: 'task.sweep'; now: number }
  | { op: 'task.live' }
  | { op: 'task.count' };

/** A request the object refuses (answered 400 with the message). */
export class StateRequestError extends Error {
  override readonly name = 'StateRequestError';
}

type Fields = Record<string, unknown>;

function text(body: Fields, field: string, max = MAX_ID): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw new StateRequestError(`"${field}" must be a non-empty string`);
  if (value.length > max) throw new StateRequestError(`"${field}" is longer than ${max} characters`);
  return value;
}

function json(body: Fields, field: string): string {
  const value = text(body, field, MAX_VALUE_CHARS);
  try {
    JSON.parse(value);
  } catch {
    throw new StateRequestError(`"${field}" must be a JSON text`);
  }
  return value;
}

function duration(body: Fields, field: string): number {
  const value = body[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_DURATION_MS)
    throw new StateRequestError(`"${field}" must be a whole number of milliseconds from 1 to ${MAX_DURATION_MS}`);
  return value;
}

function instant(body: Fields, field: string): number {
  const value = body[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new StateRequestError(`"${field}" must be epoch milliseconds`);
  return value;
}

function flag(body: Fields, field: string): boolean {
  const value = body[field];
  if (typeof value !== 'boolean') throw new StateRequestError(`"${field}" must be true or false`);
  return value;
}

/** The operation `body` (parsed JSON) asks for; throws a {@link StateRequestError} naming the first problem. */
export function parseStateRequest(body: unknown): StateRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new StateRequestError('the body must be a JSON object with an "op"');
  const fields = body as Fields;
  const op = fields.op;
  switch (op) {
    case 'consume':
      return { op, id: text(fields, 'id'), ttlMs: duration(fields, 'ttlMs') };
    case 'claim':
      return {
        op,
        id: text(fields, 'id'),
        fingerprint: text(fields, 'fingerprint'),
        owner: text(fields, 'owner'),
        ttlMs: duration(fields, 'ttlMs'),
        leaseMs: duration(fields, 'leaseMs')
      };
    case 'record':
      return { op, id: text(fields, 'id'), owner: text(fields, 'owner'), outcome: json(fields, 'outcome') };
    case 'release':
      return { op, id: text(fields, 'id'), owner: text(fields, 'owner') };
    case 'renew':
      return { op, id: text(fields, 'id'), owner: text(fields, 'owner'), leaseMs: duration(fields, 'leaseMs') };
    case 'task.create':
      return {
        op,
        taskId: text(fields, 'taskId'),
        record: json(fields, 'record'),
        expiresAt: instant(fields, 'expiresAt'),
        live: flag(fields, 'live')
      };
    case 'task.get':
      return { op, taskId: text(fields, 'taskId') };
    case 'task.cas':
      return {
        op,
        taskId: text(fields, 'taskId'),
        expected: json(fields, 'expected'),
        next: json(fields, 'next'),
        live: flag(fields, 'live')
      };
    case 'task.sweep':
      return { op, now: instant(fields, 'now') };
    case 'task.live':
    case 'task.count':
      return { op };
    default:
      throw new StateRequestError(
        `unknown "op" ${JSON.stringify(op)}: one of consume, claim, record, release, renew, task.create, task.get, task.cas, task.sweep, task.live, task.count`
      );
  }
}
