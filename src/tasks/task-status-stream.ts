import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { TaskCaller } from '../types/tasks';
import type { TaskLifecycle, TaskView } from './task-lifecycle';
import { TERMINAL } from './task-record';
import type { TaskWatchers } from './task-watchers';

/**
 * A `subscriptions/listen` stream for task status (`notifications.taskIds`, the tasks
 * extension): acknowledged with the ids the caller may see (another caller's, or unknown ones,
 * are left out), then a `notifications/tasks` with the complete task, as `tasks/get` shows it,
 * on every change of one of them. The stream ends by itself once every task it follows is
 * finished (the listen request's result closes it), or when the client goes away.
 */
export async function taskListenResponse(
  id: string | number,
  taskIds: readonly string[],
  request: TaskCaller,
  tasks: TaskLifecycle,
  watchers: TaskWatchers,
  signal: AbortSignal
): Promise<Response> {
  const honoured: string[] = [];
  for (const taskId of new Set(taskIds)) {
    try {
      await tasks.get(taskId, request);
      honoured.push(taskId);
    } catch {
      // not this caller's, or gone: not followed, and not said to exist
    }
  }
  const encoder = new TextEncoder();
  const meta = { [SUBSCRIPTION_ID_META_KEY]: id };
  const removals: Array<() => void> = [];
  let closed = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const write = (message: object): void => {
    if (!closed) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`));
  };
  const finished = new Set<string>();
  const end = (graceful: boolean): void => {
    if (closed) return;
    if (graceful) write({ id, result: { resultType: 'complete', _meta: meta } });
    closed = true;
    for (const remove of removals) remove();
    signal.removeEventListener('abort', onAbort);
    controller.close();
  };
  const onAbort = (): void => end(false);
  const push = async (taskId: string): Promise<void> => {
    let view: TaskView;
    try {
      view = await tasks.get(taskId, request);
    } catch {
      finished.add(taskId); // expired meanwhile
      if (finished.size === honoured.length) end(true);
      return;
    }
    const { resultType: _resultType, ...task } = view;
    write({ method: 'notifications/tasks', params: { ...task, _meta: meta } });
    if (TERMINAL.has(view.status)) finished.add(taskId);
    if (finished.size === honoured.length) end(true);
  };
  const readable = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      write({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: honoured }, _meta: meta } });
      if (honoured.length === 0) return end(true);
      for (const taskId of honoured) removals.push(watchers.watch(taskId, () => void push(taskId)));
      signal.addEventListener('abort', onAbort, { once: true });
      // The current state first: a client that listens after a change has not missed it.
      for (const taskId of honoured) void push(taskId);
    },
    cancel() {
      end(false);
    }
  });
  return new Response(readable, {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' }
  });
}
