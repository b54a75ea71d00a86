import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { IsInt, IsString, Min } from 'class-validator';
import {
  Action,
  FusionApp,
  Input,
  Mutation,
  Prompt,
  Resource,
  Signal,
  ToolError,
  ToolProvider,
  progress,
  type CallContext,
  type Middleware
} from '../../src';
import type { Era } from '../../src/types/core';
import { connectTestClient } from '../../src/testing';
import { InteractiveTools, Ledger } from '../fixtures/interactive-tools';
import { Recorder, pointsOf, registerContext } from '../helpers/otel';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

class Amount {
  @IsInt() @Min(1) amount!: number;
}
class Name {
  @IsString() name!: string;
}

let recorder: Recorder;
const entered: Array<() => void> = [];

@ToolProvider()
class ObservedTools {
  @Action('echo', { description: 'Echoes, querying a database on the way' })
  async echo(@Input() input: Name) {
    // What a user's instrumented database client does: a span under whatever is active.
    await recorder.tracerProvider.getTracer('db').startActiveSpan('db.query', async (span) => {
      await Promise.resolve();
      span.end();
    });
    return `hello ${input.name}`;
  }

  @Action('fails', { description: 'A tool error' })
  fails(): string {
    throw new ToolError('the ledger is closed');
  }

  @Mutation('pay', { description: 'A mutation behind a middleware' })
  pay(@Input() input: Amount) {
    return `paid ${input.amount}`;
  }

  @Action('steps', { description: 'A generator reporting progress' })
  async *steps() {
    yield progress(30, 'rows loaded');
    yield progress(80, 'rendered');
    return 'done';
  }

  @Action('hang', { description: 'Waits until cancelled', timeoutMs: 60_000 })
  async hang(@Signal() signal: AbortSignal) {
    entered.shift()?.();
    await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
  }

  @Action('slow', { description: 'Times out', timeoutMs: 50 })
  async slow(@Signal() signal: AbortSignal) {
    await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
  }

  @Prompt('greet', { description: 'A prompt' })
  greet(@Input() input: Name) {
    return `Greet ${input.name}`;
  }

  @Resource('notes://today', { name: 'today', description: 'A resource', mimeType: 'text/plain' })
  today() {
    return 'nothing planned';
  }
}

const audit: Middleware = async function audit(_ctx: CallContext, next: () => Promise<unknown>) {
  return next();
};

const attributes = (span: ReadableSpan) => span.attributes;
const stageNames = (spans: ReadableSpan[]) => spans.map((s) => s.name);
const text = (result: { content: unknown }) => (result.content as Array<{ text?: string }>).map((c) => c.text).join('\n');

describe('telemetry: one server span per MCP request, per the MCP semantic conventions', () => {
  let unregister: () => void;
  let app: FusionApp;
  let url: URL;

  beforeAll(async () => {
    unregister = registerContext();
    recorder = new Recorder();
    app = FusionApp.create({
      tools: [ObservedTools, InteractiveTools],
      providers: [{ provide: Ledger, useValue: new Ledger() }],
      middleware: [audit],
      stateKey: 'k'.repeat(32),
      logger: () => undefined,
      telemetry: { tracerProvider: recorder.tracerProvider, meterProvider: recorder.meterProvider }
    });
    ({ url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });
  afterAll(async () => {
    await app.close();
    await recorder.close();
    unregister();
  });
  beforeEach(() => recorder.clear());

  async function connect(era: Era): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(url);
    const client = new Client({ name: 't', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
    await client.connect(transport);
    return { client, transport };
  }

  for (const era of ['modern', 'legacy'] as const) {
    it(`${era}, real HTTP: tools/call is a SERVER span named "tools/call echo" with the conventions' attributes, and stage spans in chain order`, async () => {
      const { client, transport } = await connect(era);
      expect(text(await client.callTool({ name: 'echo', arguments: { name: 'Ada' } }))).toBe('hello Ada');
      const span = await recorder.named('tools/call echo');
      expect(span.kind).toBe(SpanKind.SERVER);
      expect(attributes(span)).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'echo',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.protocol.version': era === 'modern' ? '2026-07-28' : expect.stringMatching(/^2025-/),
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
        'client.address': '127.0.0.1'
      });
      expect(attributes(span)['jsonrpc.request.id']).toEqual(expect.any(String));
      if (era === 'legacy') expect(attributes(span)['mcp.session.id']).toBe(transport.sessionId);
      else expect(attributes(span)['mcp.session.id']).toBeUndefined();
      expect(span.parentSpanContext).toBeUndefined(); // no traceparent, no ambient span: a new root
      expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
      // queue → middleware audit (around the rest) → handler; present after; the user's span under the handler.
      const children = recorder.childrenOf(span);
      expect(stageNames(children)).toEqual(['queue', 'middleware audit', 'present']);
      const middleware = children[1];
      expect(stageNames(recorder.childrenOf(middleware))).toEqual(['validate-input', 'handler echo']);
      const handler = recorder.childrenOf(middleware)[1];
      expect(stageNames(recorder.childrenOf(handler))).toEqual(['db.query']);
      expect(children[0].attributes).toMatchObject({ 'mcpfusion.stage': 'queue', 'mcpfusion.queue.depth': 0 });
      await client.close();
    });
  }

  it('takes its parent from params._meta.traceparent (W3C), keeps tracestate; a malformed one starts a new root and never fails the call', async () => {
    const { client, close } = await connectTestClient(app);
    await client.callTool({ name: 'echo', arguments: { name: 'a' }, _meta: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: 'rojo=00f067aa0ba902b7' } });
    const child = await recorder.named('tools/call echo');
    expect(child.spanContext().traceId).toBe(TRACE_ID);
    expect(child.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(child.spanContext().traceState?.get('rojo')).toBe('00f067aa0ba902b7');
    recorder.clear();
    for (const bad of ['00-zz-yy-01', `00-${'0'.repeat(32)}-${PARENT_ID}-01`, 42, { traceparent: 'x' }, 'x'.repeat(9_000)]) {
      const result = await client.callTool({ name: 'echo', arguments: { name: 'b' }, _meta: { traceparent: bad } as never });
      expect(text(result)).toBe('hello b');
    }
    const roots = recorder.spans.filter((s) => s.name === 'tools/call echo');
    expect(roots).toHaveLength(5);
    for (const root of roots) expect(root.parentSpanContext).toBeUndefined();
    await close();
  });

  it('names and attributes every request kind: lists, prompts/get, resources/read', async () => {
    const { client, close } = await connectTestClient(app);
    await client.listTools();
    await client.listPrompts();
    await client.listResources();
    await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    await client.readResource({ uri: 'notes://today' });
    expect((await recorder.named('tools/list')).attributes['mcp.method.name']).toBe('tools/list');
    await recorder.named('prompts/list');
    await recorder.named('resources/list');
    const prompt = await recorder.named('prompts/get greet');
    expect(prompt.attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'greet' });
    expect(prompt.attributes['gen_ai.operation.name']).toBeUndefined();
    const read = await recorder.named('resources/read');
    expect(read.attributes).toMatchObject({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': 'notes://today' });
    await close();
  });

  it('a tool error sets error.type tool_error and the status; a protocol error its JSON-RPC code', async () => {
    const { client, close } = await connectTestClient(app);
    expect((await client.callTool({ name: 'fails', arguments: {} })).isError).toBe(true);
    const failed = await recorder.named('tools/call fails');
    expect(failed.attributes['error.type']).toBe('tool_error');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow();
    const unknown = await recorder.named('tools/call nope');
    expect(unknown.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(unknown.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.stringContaining('nope') });
    await close();
  });

  it('a mutation: the lock wait is a stage between the middleware and validation', async () => {
    const { client, close } = await connectTestClient(app);
    await client.callTool({ name: 'pay', arguments: { amount: 3 } });
    const span = await recorder.named('tools/call pay');
    const middleware = recorder.childrenOf(span).find((s) => s.name === 'middleware audit')!;
    expect(stageNames(recorder.childrenOf(middleware))).toEqual(['mutation-lock', 'validate-input', 'handler pay']);
    await close();
  });

  it('a generator: its driving is the handler span; progress reports are span events', async () => {
    const { client, close } = await connectTestClient(app);
    await client.callTool({ name: 'steps', arguments: {} });
    const span = await recorder.named('tools/call steps');
    expect(span.events.filter((e) => e.name === 'progress').map((e) => e.attributes)).toEqual([
      { 'mcpfusion.progress.percent': 30, 'mcpfusion.progress.message': 'rows loaded' },
      { 'mcpfusion.progress.percent': 80, 'mcpfusion.progress.message': 'rendered' }
    ]);
    const middleware = recorder.childrenOf(span).find((s) => s.name === 'middleware audit')!;
    expect(stageNames(recorder.childrenOf(middleware))).toEqual(['validate-input', 'handler steps']);
    await close();
  });

  it('modern: the rounds of an interactive call are one story: round numbers, the kinds asked, each later round linked to the first', async () => {
    const { client, close } = await connectTestClient(app, { era: 'modern', answers: { confirm: true } });
    expect(text(await client.callTool({ name: 'refund', arguments: { amount: 7 } }))).toBe('Refunded $7');
    await recorder.ended((s) => s.name === 'tools/call refund' && s.attributes['mcpfusion.input.round'] === 2, 'round 2');
    const rounds = recorder.spans.filter((s) => s.name === 'tools/call refund');
    expect(rounds).toHaveLength(2);
    const [first, second] = rounds.sort((a, b) => Number(a.attributes['mcpfusion.input.round']) - Number(b.attributes['mcpfusion.input.round']));
    expect(first.attributes).toMatchObject({ 'mcpfusion.input.round': 1, 'mcpfusion.input.kinds': ['elicitation'] });
    expect(first.events.map((e) => e.name)).toContain('input_required');
    // The answering round runs the whole chain: the mutation lock is taken only now, never while a human answers.
    const middleware = recorder.childrenOf(second).find((s) => s.name === 'middleware audit')!;
    expect(stageNames(recorder.childrenOf(second))).toEqual(['queue', 'middleware audit', 'present']);
    expect(stageNames(recorder.childrenOf(middleware))).toEqual(['mutation-lock', 'validate-input', 'handler refund']);
    expect(second.links).toEqual([
      expect.objectContaining({ context: expect.objectContaining({ spanId: first.spanContext().spanId, traceId: first.spanContext().traceId }), attributes: { 'mcpfusion.link.relation': 'first_round' } })
    ]);
    await close();
  });

  it('records a timeout as a cancellation with its source', async () => {
    const { client, close } = await connectTestClient(app);
    const result = await client.callTool({ name: 'slow', arguments: {} });
    expect(result.isError).toBe(true);
    const span = await recorder.named('tools/call slow');
    expect(span.attributes['mcpfusion.cancel.source']).toBe('timeout');
    expect(span.events.map((e) => e.name)).toContain('cancelled');
    await close();
  });

  for (const [era, source] of [
    ['legacy', 'client_cancel'],
    ['modern', 'stream_closed']
  ] as const) {
    it(`${era}, real HTTP: a client's cancellation is recorded as ${source}`, async () => {
      const { client } = await connect(era);
      const started = new Promise<void>((resolve) => entered.push(resolve));
      const abort = new AbortController();
      const call = client.callTool({ name: 'hang', arguments: {} }, { signal: abort.signal });
      await started;
      abort.abort('the user pressed Ctrl-C');
      await expect(call).rejects.toThrow();
      const span = await recorder.named('tools/call hang');
      expect(span.attributes['mcpfusion.cancel.source']).toBe(source);
      await client.close();
    });
  }

  it('records the metrics: operation duration per the conventions, calls in flight, cancellations by source, lock waits, input rounds', async () => {
    const { client, close } = await connectTestClient(app, { answers: { confirm: true } });
    await client.callTool({ name: 'pay', arguments: { amount: 1 } });
    await client.callTool({ name: 'refund', arguments: { amount: 2 } });
    await client.callTool({ name: 'slow', arguments: {} });
    const metrics = await recorder.metrics();
    const duration = metrics.get('mcp.server.operation.duration');
    expect(duration?.descriptor.unit).toBe('s');
    expect(pointsOf(duration, { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'pay', 'gen_ai.operation.name': 'execute_tool' }).length).toBeGreaterThan(0);
    expect(pointsOf(metrics.get('mcpfusion.calls.cancelled'), { 'mcpfusion.cancel.source': 'timeout' }).length).toBe(1);
    expect(pointsOf(metrics.get('mcpfusion.lock.wait.duration'), { 'gen_ai.tool.name': 'pay' }).length).toBe(1);
    expect(pointsOf(metrics.get('mcpfusion.input.rounds'), { 'mcpfusion.input.kind': 'elicitation' }).length).toBe(1);
    expect(pointsOf(metrics.get('mcpfusion.calls.active'), { 'gen_ai.tool.name': 'pay' })[0]?.value).toBe(0);
    expect(metrics.has('mcpfusion.queue.depth')).toBe(true);
    await close();
  });

});

describe('telemetry: false', () => {
  it('builds chains without any stage wrapper and serves no span', async () => {
    const recorder2 = new Recorder();
    const app = FusionApp.create({ tools: [ObservedTools], telemetry: false, logger: () => undefined });
    recorder = recorder2;
    const { client, close } = await connectTestClient(app);
    await client.callTool({ name: 'pay', arguments: { amount: 1 } });
    expect(recorder2.spans.map((s) => s.name)).toEqual([]);
    await close();
    await app.close();
  });
});
