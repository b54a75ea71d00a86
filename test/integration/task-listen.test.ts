import { FusionApp } from '../../src';
import { Gates, TaskLedger, TaskTools } from '../fixtures/task-tools';
import { modernRequest, postRaw, responseOf } from '../helpers/raw-http';

const WITH_TASKS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** `subscriptions/listen` with `notifications.taskIds`: task status pushed as `notifications/tasks`, over real HTTP. */
describe('task status on a listen stream', () => {
  let app: FusionApp;
  let url: URL;
  let gates: Gates;
  beforeEach(async () => {
    gates = new Gates();
    app = FusionApp.create({
      tools: [TaskTools],
      providers: [
        { provide: Gates, useValue: gates },
        { provide: TaskLedger, useValue: new TaskLedger() }
      ],
      stateKey: 'k'.repeat(32)
    });
    ({ url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });
  afterEach(async () => {
    await app.close();
  });

  async function startTask(gate: string): Promise<string> {
    const { body, headers } = modernRequest('tools/call', { name: 'job.wait', arguments: { gate } }, { capabilities: WITH_TASKS });
    const created = responseOf(await postRaw(url, body, headers)).result as { taskId: string; resultType: string };
    expect(created.resultType).toBe('task');
    return created.taskId;
  }

  /** Opens the stream; `next()` gives its JSON-RPC messages one by one. */
  async function listen(taskIds: string[], capabilities: Record<string, unknown> = WITH_TASKS) {
    const { body, headers } = modernRequest('subscriptions/listen', { notifications: { taskIds } }, { capabilities });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const queue: Array<Record<string, unknown>> = [];
    let buffer = '';
    let done = false;
    const next = async (): Promise<Record<string, unknown> | undefined> => {
      while (queue.length === 0 && !done) {
        const chunk = await reader.read();
        if (chunk.done) done = true;
        else buffer += decoder.decode(chunk.value, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5))
            .join('');
          if (data) queue.push(JSON.parse(data) as Record<string, unknown>);
        }
      }
      return queue.shift();
    };
    return { res, next, cancel: () => reader.cancel() };
  }

  it('acknowledges the ids, pushes every change as the complete task, and ends once the task is finished', async () => {
    const taskId = await startTask('a');
    const stream = await listen([taskId, 'unknown-task']);
    expect(stream.res.headers.get('content-type')).toContain('text/event-stream');
    const ack = await stream.next();
    expect(ack).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [taskId] } } });
    const working = await stream.next();
    expect(working).toMatchObject({ method: 'notifications/tasks', params: { taskId, status: 'working' } });
    gates.get('a').release();
    let last: Record<string, unknown> | undefined;
    for (let message = await stream.next(); message; message = await stream.next()) last = message;
    // The stream ends with the listen request's own result, after the terminal notification.
    expect(last).toMatchObject({ result: { resultType: 'complete' } });
  });

  it('the terminal notification carries the result inlined, as tasks/get would', async () => {
    const taskId = await startTask('b');
    const stream = await listen([taskId]);
    await stream.next(); // ack
    await stream.next(); // working
    gates.get('b').release();
    const messages: Array<Record<string, unknown>> = [];
    for (let message = await stream.next(); message; message = await stream.next()) messages.push(message);
    const completed = messages.find((m) => (m.params as { status?: string } | undefined)?.status === 'completed');
    expect(completed).toMatchObject({ params: { taskId, result: { content: [{ type: 'text', text: 'released b' }] } } });
  });

  it('ids the caller may not see are not followed: the stream acknowledges none and ends', async () => {
    const stream = await listen(['not-a-task']);
    expect(await stream.next()).toMatchObject({ params: { notifications: { taskIds: [] } } });
    expect(await stream.next()).toMatchObject({ result: { resultType: 'complete' } });
    expect(await stream.next()).toBeUndefined();
  });

  it('without the extension the listen request is refused with -32021', async () => {
    const taskId = await startTask('c');
    const { body, headers } = modernRequest('subscriptions/listen', { notifications: { taskIds: [taskId] } }, { capabilities: {} });
    const answer = responseOf(await postRaw(url, body, headers));
    expect(answer.error?.code).toBe(-32021);
    gates.get('c').release();
  });
});
