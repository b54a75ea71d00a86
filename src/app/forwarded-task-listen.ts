import { serverSdk } from '../wire/server-sdk';
import type { TaskForwarding } from '../types/forwarded-tasks';

/**
 * A `subscriptions/listen` stream of forwarded tasks' status (the tasks extension's listen, for
 * tasks a member source's server runs): acknowledged with the ids this caller may follow (others',
 * and unknown ones, left out, as for the app's own tasks), then each `notifications/tasks` the
 * servers behind the sources report, under the front ids; the listen's result once every source's
 * stream ended (every task finished), nothing more once the client went away. Returns undefined
 * when none of `taskIds` is a forwarded task of this caller and `orNone` is false (the app's own
 * tasks answer the listen then).
 */
export function forwardedListenResponse(
  id: string | number,
  taskIds: readonly string[],
  owner: string,
  forwarding: readonly TaskForwarding[],
  signal: AbortSignal,
  orNone: boolean
): Response | undefined {
  const encoder = new TextEncoder();
  const meta = { [serverSdk().SUBSCRIPTION_ID_META_KEY]: id };
  const stop = new AbortController();
  let closed = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const write = (message: object): void => {
    if (!closed) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`));
  };
  const end = (graceful: boolean): void => {
    if (closed) return;
    if (graceful) write({ id, result: { resultType: 'complete', _meta: meta } });
    closed = true;
    signal.removeEventListener('abort', onAbort);
    stop.abort();
    controller.close();
  };
  const onAbort = (): void => end(false);
  const readable = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
    cancel() {
      end(false);
    }
  });
  const follows = forwarding.map((tasks) =>
    tasks.follow(taskIds, owner, stop.signal, (task) => write({ method: 'notifications/tasks', params: { ...task, _meta: meta } }))
  );
  const followed = follows.flatMap((follow) => follow.followed);
  if (followed.length === 0 && !orNone) {
    stop.abort();
    return undefined;
  }
  write({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: followed }, _meta: meta } });
  if (signal.aborted) end(false);
  else signal.addEventListener('abort', onAbort, { once: true });
  void Promise.all(follows.map((follow) => follow.ended)).then(() => end(!signal.aborted));
  return new Response(readable, {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' }
  });
}
