import type { RawExchange } from '../../wire/raw-exchange';
import { taskEnvelope } from './task-call';

/**
 * A `tasks/*` request over `raw` (the SDK client cannot make it), stamped with the per-request
 * envelope of `protocolVersion`; its JSON-RPC error rejects as an `UpstreamRpcError` (its code kept).
 */
export function requestTask(
  raw: RawExchange,
  protocolVersion: string,
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal
): Promise<Record<string, unknown>> {
  const envelope = taskEnvelope(protocolVersion, {});
  return raw.request(method, { ...params, _meta: envelope }, signal);
}

/**
 * A task status listen over `raw` (`subscriptions/listen` naming `taskIds`): each
 * `notifications/tasks` on its stream goes to `status`; resolves when the upstream ends the
 * stream, rejects when `signal` aborts or the exchange fails.
 */
export async function listenToTaskStatus(
  raw: RawExchange,
  protocolVersion: string,
  taskIds: readonly string[],
  signal: AbortSignal,
  status: (task: Record<string, unknown>) => void
): Promise<void> {
  const envelope = taskEnvelope(protocolVersion, {});
  await raw.listen({ notifications: { taskIds: [...taskIds] }, _meta: envelope }, signal, (notification) => {
    if (notification.method === 'notifications/tasks' && notification.params && typeof notification.params === 'object')
      status(notification.params as Record<string, unknown>);
  });
}
