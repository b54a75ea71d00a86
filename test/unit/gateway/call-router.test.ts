import 'reflect-metadata';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { CallRouter } from '../../../src/gateway/call-router';
import { UpstreamCall, type CallEvent, type UpstreamAsk } from '../../../src/gateway/upstream-call';

/**
 * The router names the call an upstream message belongs to. On the gateway's direct path (each
 * call reads its own response stream) it is told the call as each message is handed on, so it
 * needs no async context: a notification is routed at once, a question by its JSON-RPC id when
 * the SDK's handler asks for it later (a microtask on).
 */

const elicit: UpstreamAsk = {
  method: 'elicitation/create',
  params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } }
};
const request = (id: string | number): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id, method: 'elicitation/create', params: elicit.params }) as JSONRPCMessage;
const log = (data: string): JSONRPCMessage =>
  ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } }) as JSONRPCMessage;

function callOf(router: CallRouter, name: string): UpstreamCall {
  const call = new UpstreamCall(name, `gw-${name}`);
  router.add(call);
  return call;
}

/** The events queued on `call` so far. */
async function queued(call: UpstreamCall, count: number): Promise<CallEvent[]> {
  const events: CallEvent[] = [];
  for (let i = 0; i < count; i++) events.push(await call.next());
  return events;
}

describe('CallRouter on the direct path (no async context)', () => {
  it('gives a question to the call whose stream carried it, when the handler asks a tick later', async () => {
    const router = new CallRouter(false);
    const a = callOf(router, 'a');
    callOf(router, 'b');
    let handled: Promise<unknown> | undefined;
    router.deliver(a, request(7), () => {
      // The SDK runs its request handler a microtask after it receives the request.
      handled = Promise.resolve().then(() => router.ask(elicit, 7, () => undefined));
    });
    const [event] = await queued(a, 1);
    expect(event.kind).toBe('question');
    if (event.kind !== 'question') return;
    event.question.respond({ result: { action: 'accept', content: {} } });
    await expect(handled).resolves.toEqual({ result: { action: 'accept', content: {} } });
  });

  it('refuses a question whose id two calls in flight both used, naming why, and gives it to neither', async () => {
    const router = new CallRouter(false);
    const a = callOf(router, 'a');
    const b = callOf(router, 'b');
    router.deliver(a, request(1), () => undefined);
    router.deliver(b, request(1), () => undefined);
    const refusals: string[] = [];
    const answer = await router.ask(elicit, 1, (why) => refusals.push(why));
    expect(answer).toEqual({ result: { action: 'cancel' } });
    expect(refusals).toEqual(['two requests in flight asked under the same request id']);
    a.push({ kind: 'done', result: { content: [] } });
    expect((await a.next()).kind).toBe('done');
  });

  it('refuses, over HTTP, a question no call delivered (it came on the standalone stream)', async () => {
    const router = new CallRouter(false);
    callOf(router, 'a');
    const refusals: string[] = [];
    await router.ask(elicit, 3, (why) => refusals.push(why));
    expect(refusals).toEqual(['it came outside every call (on the standalone stream)']);
  });

  it('routes a log message to the call being delivered, and to none outside a delivery over HTTP', async () => {
    const router = new CallRouter(false);
    const a = callOf(router, 'a');
    let routed: boolean | undefined;
    router.deliver(a, log('inside'), (message) => (routed = router.route(message)));
    expect(routed).toBe(true);
    expect(await queued(a, 1)).toEqual([{ kind: 'log', level: 'info', data: 'inside' }]);
    expect(router.route(log('outside'))).toBe(false);
  });

  it('forgets the questions of a call that ended before its handler took them', async () => {
    const router = new CallRouter(false);
    const a = callOf(router, 'a');
    router.deliver(a, request(5), () => undefined);
    router.delete(a);
    const b = callOf(router, 'b');
    router.deliver(b, request(5), () => undefined);
    const asked = router.ask(elicit, 5, () => undefined);
    const [event] = await queued(b, 1);
    expect(event.kind).toBe('question');
    if (event.kind === 'question') event.question.respond({ result: { action: 'decline' } });
    await expect(asked).resolves.toEqual({ result: { action: 'decline' } });
  });
});

describe('CallRouter under a flood of upstream requests', () => {
  it('remembers only the requests it answers, and at most 256 at once: the rest are refused, not kept', async () => {
    const router = new CallRouter(false);
    const a = callOf(router, 'a');
    // Another method (the SDK answers it itself, never asking a handler of ours): not remembered.
    router.deliver(a, { jsonrpc: '2.0', id: 'x', method: 'tools/list' } as JSONRPCMessage, () => undefined);
    for (let id = 0; id < 1000; id++) router.deliver(a, request(id), () => undefined);
    const refusals: string[] = [];
    await router.ask(elicit, 999, (why) => refusals.push(why));
    expect(refusals).toEqual(['it came outside every call (on the standalone stream)']);
    const answered = router.ask(elicit, 0, () => undefined);
    const [event] = await queued(a, 1);
    if (event.kind === 'question') event.question.respond({ result: { action: 'decline' } });
    await expect(answered).resolves.toEqual({ result: { action: 'decline' } });
  });
});

describe('CallRouter with both paths in flight', () => {
  it("refuses a question whose id a direct call delivered while a request of the SDK client's own asks under it", async () => {
    const router = new CallRouter(false);
    const a = callOf(router, 'a');
    router.deliver(a, request(9), () => undefined);
    const refusals: string[] = [];
    // A listing the SDK client sends (no call): a question inside it, under the same id.
    const answer = await router.runOutside(() => router.ask(elicit, 9, (why) => refusals.push(why)));
    expect(answer).toEqual({ result: { action: 'cancel' } });
    expect(refusals).toEqual(['two requests in flight asked under the same request id']);
  });
});
