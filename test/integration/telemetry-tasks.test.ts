import { FusionApp, jwtVerifier } from '../../src';
import { AUDIENCE, ISSUER, jwksOf, mintToken, signingKey } from '../helpers/auth-fixtures';
import { Recorder } from '../helpers/otel';
import { modernRequest, postRaw, responseOf } from '../helpers/raw-http';
import { Gates, TaskLedger, TaskTools } from '../fixtures/task-tools';

/**
 * Telemetry of a task (the tasks extension, over real HTTP on 127.0.0.1 with a bearer token): the
 * request that creates it, the task's own span linked to that request, and every later request
 * about it (`tasks/get`, `tasks/cancel`) linked to it too; the caller recorded from the verified
 * token (`enduser.id`, `enduser.scope`), the token itself nowhere.
 */

const TASKS = 'io.modelcontextprotocol/tasks';

describe('telemetry: a task is one story with the request that created it', () => {
  const recorder = new Recorder();
  const gates = new Gates();
  let app: FusionApp;
  let url: URL;
  let token: string;

  beforeAll(async () => {
    const key = await signingKey('telemetry-key');
    token = await mintToken(key, { sub: 'alice', scope: 'billing:read billing:write' });
    app = FusionApp.create({
      tools: [TaskTools],
      providers: [
        { provide: Gates, useValue: gates },
        { provide: TaskLedger, useValue: new TaskLedger() }
      ],
      stateKey: 'k'.repeat(32),
      logger: () => undefined,
      auth: { verifier: jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: jwksOf(key) }), resource: AUDIENCE, authorizationServers: [ISSUER] },
      telemetry: { tracerProvider: recorder.tracerProvider, meterProvider: recorder.meterProvider }
    });
    ({ url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });
  afterAll(async () => {
    await app.close();
    await recorder.close();
  });

  async function rpc(method: string, params: Record<string, unknown>) {
    const { body, headers } = modernRequest(method, params, { capabilities: { elicitation: { form: {} }, extensions: { [TASKS]: {} } } });
    const answer = await postRaw(url, body, {
      ...headers,
      authorization: `Bearer ${token}`,
      ...(typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {})
    });
    return responseOf(answer) as { result?: Record<string, unknown> };
  }

  it('links the task span, tasks/get and tasks/cancel to the creating request, and records the caller from the token', async () => {
    const created = await rpc('tools/call', { name: 'job.progress', arguments: { gate: 'g1' } });
    expect(created.result?.resultType).toBe('task');
    const taskId = created.result!.taskId as string;
    const request = await recorder.named('tools/call job.progress');
    expect(request.attributes).toMatchObject({ 'mcpfusion.task.id': taskId, 'enduser.id': 'user:alice', 'enduser.scope': 'billing:read billing:write' });
    expect(JSON.stringify(request.attributes)).not.toContain(token);

    await rpc('tasks/get', { taskId });
    const get = await recorder.named('tasks/get');
    expect(get.attributes['mcpfusion.task.id']).toBe(taskId);
    expect(get.links).toEqual([expect.objectContaining({ context: expect.objectContaining({ spanId: request.spanContext().spanId }), attributes: { 'mcpfusion.link.relation': 'created_by' } })]);

    await rpc('tasks/cancel', { taskId });
    const cancel = await recorder.named('tasks/cancel');
    expect(cancel.links.map((l) => l.context.spanId)).toEqual([request.spanContext().spanId]);

    const task = await recorder.named('task job.progress');
    expect(task.attributes).toMatchObject({ 'mcpfusion.task.id': taskId, 'mcpfusion.cancel.source': 'task_cancel' });
    expect(task.links.map((l) => [l.context.spanId, l.attributes?.['mcpfusion.link.relation']])).toEqual([[request.spanContext().spanId, 'created_by']]);
    // The progress that made it a task is an event of the task's story.
    expect([...request.events, ...task.events].some((e) => e.name === 'progress' && e.attributes?.['mcpfusion.progress.message'] === 'half')).toBe(true);
  });

  it("links a task's later round (after tasks/update) to the request that resumed it and to the one that created it", async () => {
    recorder.clear();
    const created = await rpc('tools/call', { name: 'refund.task', arguments: { gate: 'g2', amount: 5 } });
    const taskId = created.result!.taskId as string;
    const request = await recorder.named('tools/call refund.task');
    gates.get('g2').release();
    // The first round ends asking for the confirmation: the task's span ends with it.
    const asking = await recorder.named('task refund.task');
    expect(asking.attributes['error.type']).toBeUndefined();
    await rpc('tasks/update', { taskId, inputResponses: { 'approval#1': { action: 'accept', content: { confirm: true } } } });
    const update = await recorder.named('tasks/update');
    expect(update.links.map((l) => l.context.spanId)).toEqual([request.spanContext().spanId]);
    const resumed = await recorder.ended((s) => s.name === 'task refund.task' && s !== asking, 'the resumed round');
    expect(resumed.links.map((l) => [l.context.spanId, l.attributes?.['mcpfusion.link.relation']])).toEqual([
      [update.spanContext().spanId, 'resumed_by'],
      [request.spanContext().spanId, 'created_by']
    ]);
    expect(resumed.spanContext().traceId).toBe(update.spanContext().traceId);
  });
});

describe("telemetry: the caller recorded is the one calls are bound to (the app's principalOf, from the request's facts)", () => {
  it('records enduser.id as principalOf names it from the HTTP request and the tool called, not from the token alone', async () => {
    const recorder = new Recorder();
    const key = await signingKey('telemetry-principal');
    const token = await mintToken(key, { sub: 'alice', scope: 'billing:read' });
    const seen: Array<{ toolName: string; tenant: string | null | undefined }> = [];
    const app = FusionApp.create({
      tools: [TaskTools],
      providers: [
        { provide: Gates, useValue: new Gates() },
        { provide: TaskLedger, useValue: new TaskLedger() }
      ],
      stateKey: 'k'.repeat(32),
      logger: () => undefined,
      principalOf: (extra) => {
        seen.push({ toolName: extra.toolName, tenant: extra.httpRequest?.headers.get('x-tenant') });
        return `tenant:${extra.httpRequest?.headers.get('x-tenant') ?? 'none'}`;
      },
      auth: { verifier: jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: jwksOf(key) }), resource: AUDIENCE, authorizationServers: [ISSUER] },
      telemetry: { tracerProvider: recorder.tracerProvider, meterProvider: recorder.meterProvider }
    });
    const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL };
    try {
      const { body, headers } = modernRequest('tools/call', { name: 'gate.release', arguments: { gate: 'open' } });
      await postRaw(url, body, { ...headers, authorization: `Bearer ${token}`, 'x-tenant': 'acme' });
      const span = await recorder.named('tools/call gate.release');
      expect(span.attributes['enduser.id']).toBe('tenant:acme');
      expect(seen).toContainEqual({ toolName: 'gate.release', tenant: 'acme' });
    } finally {
      await app.close();
      await recorder.close();
    }
  });
});
