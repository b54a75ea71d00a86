/**
 * Which bodies are task listens (the tasks extension's `subscriptions/listen` for task status),
 * which the routing sends to the app's task endpoints instead of the SDK's listen router.
 */
import { taskListenOf } from '../../../../src/transports/http/task-listen-request';

describe('task listens (routed to the task endpoints, not to the SDK)', () => {
  const listen = (params: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params });

  it('a subscriptions/listen naming task ids is one, with the envelope capabilities', () => {
    const capabilities = { extensions: {} };
    const parsed = taskListenOf(
      listen({ notifications: { taskIds: ['t1', 2, 't2'] }, _meta: { 'io.modelcontextprotocol/clientCapabilities': capabilities } }, 'l1')
    );
    expect(parsed).toEqual({ id: 'l1', taskIds: ['t1', 't2'], capabilities });
  });

  it('follows at most 100 tasks', () => {
    const taskIds = Array.from({ length: 150 }, (_, i) => `t${i}`);
    expect(taskListenOf(listen({ notifications: { taskIds } }))?.taskIds).toHaveLength(100);
  });

  it('anything else is not one: another method, no task ids, no request id, no body', () => {
    expect(taskListenOf({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { notifications: { taskIds: ['t1'] } } })).toBeUndefined();
    expect(taskListenOf(listen({ notifications: { taskIds: [] } }))).toBeUndefined();
    expect(taskListenOf(listen({ notifications: { resources: ['file:///a'] } }))).toBeUndefined();
    expect(taskListenOf(listen({ notifications: { taskIds: ['t1'] } }, null))).toBeUndefined();
    expect(taskListenOf(undefined)).toBeUndefined();
    expect(taskListenOf([listen({ notifications: { taskIds: ['t1'] } })])).toBeUndefined();
  });
});
