import { InvalidParamsError } from '../errors';

/** One page of a listing and the cursor of the next, if any. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

/**
 * A page of `items` from an opaque cursor (the offset, base64url): a cursor this server did not
 * make, or one past the end, is refused with -32602 naming the method.
 */
export function pageOf<T>(items: readonly T[], cursor: unknown, size: number, method: string): Page<T> {
  let start = 0;
  if (cursor !== undefined) {
    const offset = typeof cursor === 'string' ? Number(Buffer.from(cursor, 'base64url').toString('utf8')) : NaN;
    if (!Number.isSafeInteger(offset) || offset <= 0 || offset >= items.length || encode(offset) !== cursor) {
      throw new InvalidParamsError(`Invalid params for ${method}: unknown cursor`);
    }
    start = offset;
  }
  const end = start + size;
  return { items: items.slice(start, end), ...(end < items.length ? { nextCursor: encode(end) } : {}) };
}

function encode(offset: number): string {
  return Buffer.from(String(offset), 'utf8').toString('base64url');
}
