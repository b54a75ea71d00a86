import type { ServerContext } from '@modelcontextprotocol/server';
import type { ProgressSend } from '../types/request';
import { ownValue } from '../wire/own-properties';
import { isCongested } from './http/connection-facts';

/** What a dropped notification resolves to: nothing was sent, and nothing waits. */
const DROPPED: Promise<void> = Promise.resolve();

/**
 * Sends the call's progress, where the request carried a progress token; dropped while the
 * client does not read the stream it goes on (see `http/connection-facts.ts`).
 */
export function progressSender(ctx: ServerContext): ProgressSend | undefined {
  const raw = ownValue(ctx.mcpReq._meta as Record<string, unknown> | undefined, 'progressToken');
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const stream = ctx.http?.req;
  return (progress, message, total) =>
    isCongested(stream)
      ? DROPPED
      : ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: progressParams(raw, progress, total, message)
        });
}

/** A progress notification's params: the total and message only where there is one (a count may have no total); the front lane builds its own so. */
export function progressParams(progressToken: string | number, progress: number, total: number | undefined, message: string | undefined) {
  if (total === undefined) return message === undefined ? { progressToken, progress } : { progressToken, progress, message };
  return message === undefined ? { progressToken, progress, total } : { progressToken, progress, total, message };
}
