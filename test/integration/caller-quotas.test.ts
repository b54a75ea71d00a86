/**
 * One caller cannot take every place (issue 21, finding 3): live tasks, tasks waiting for input
 * and 2025-era sessions are counted per caller (by principal; without a token, by remote
 * address), with a clear refusal naming the quota; and a task waiting for input frees its place
 * after `tasks.inputTimeoutMs`, not after its whole TTL. Over real HTTP on 127.0.0.1, real JWTs.
 */
import { request as httpRequest } from 'node:http';
import { Action, FusionApp, Input, Interactive, ToolProvider, ask, jwtVerifier, readInput, requireInput } from '../../src';
import { IsString } from 'class-validator';
import { AUDIENCE, ISSUER, jwksOf, mintToken, signingKey, type SigningKey } from '../helpers/auth-fixtures';
import { modernRequest } from '../helpers/raw-http';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: { form: {} } };

let release: () => void = () => undefined;
let gate = new Promise<void>((resolve) => (release = resolve));

class Note {
  @IsString()
  text!: string;
}

@ToolProvider()
class Jobs {
  @Action('jobs.wait', { description: 'Runs until the test lets it finish.', task: { support: 'optional', create: 'at-once' } })
  async wait() {
    await gate;
    return 'done';
  }

  @Interactive()
  @Action('jobs.ask', { description: 'Asks a question inside its task.', task: { support: 'optional', create: 'at-once' } })
  askIt(@Input() input: Note) {
    const answer = readInput<boolean>('ok');
    if (answer === undefined) return requireInput.elicit(`Proceed with ${input.text}?`, { ok: ask.boolean('Proceed') });
    return answer ? 'went on' : 'stopped';
  }
}

/** A raw POST from a chosen local address (127.0.0.1 and 127.0.0.2 are two callers without tokens). */
function postFrom(
  url: URL,
  localAddress: string,
  body: string,
  headers: Record<string, string>
): Promise<{ status: number; text: string; session?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        const session = res.headers['mcp-session-id'] as string | undefined;
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, ...(session ? { session } : {}) }));
      }
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC response in an answer (JSON, or the last data line of an event stream). */
function messageOf(text: string): { result?: Record<string, unknown>; error?: { code: number; message: string } } {
  const lines = text.split('\n').filter((line) => line.startsWith('data:'));
  return JSON.parse(lines.length > 0 ? lines[lines.length - 1].slice(5) : text) as never;
}

async function callAs(url: URL, token: string | undefined, name: string, args: Record<string, unknown> = {}, from = '127.0.0.1') {
  const { body, headers } = modernRequest('tools/call', { name, arguments: args }, { capabilities: TASKS });
  const answer = await postFrom(url, from, body, { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) });
  return { status: answer.status, ...messageOf(answer.text) };
}

let key: SigningKey;
beforeAll(async () => {
  key = await signingKey('k1');
});

afterEach(() => {
  release();
  gate = new Promise<void>((resolve) => (release = resolve));
  jest.restoreAllMocks();
});

async function start(options: { auth?: boolean; tasks?: object; sessions?: object } = {}) {
  const app = FusionApp.create({
    tools: [Jobs],
    tasks: options.tasks,
    ...(options.auth
      ? {
          auth: {
            verifier: jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: jwksOf(key) }),
            resource: AUDIENCE,
            authorizationServers: [ISSUER]
          }
        }
      : {})
  });
  const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false, sessions: options.sessions })) as { url: URL };
  return { app, url };
}

describe('live tasks per caller', () => {
  it('by principal: a third task of one caller is refused naming the quota; another caller still gets a place', async () => {
    const { app, url } = await start({ auth: true, tasks: { maxLiveTasksPerCaller: 2 } });
    try {
      const alice = await mintToken(key, { sub: 'alice' });
      const bob = await mintToken(key, { sub: 'bob' });
      for (let i = 0; i < 2; i++) expect((await callAs(url, alice, 'jobs.wait')).result?.resultType).toBe('task');
      const third = await callAs(url, alice, 'jobs.wait');
      expect(third.result).toMatchObject({
        isError: true,
        content: [
          {
            type: 'text',
            text: 'Too many tasks for this caller: 2 are already running or waiting (tasks.maxLiveTasksPerCaller). Let one finish or cancel one, then retry.'
          }
        ]
      });
      expect((await callAs(url, bob, 'jobs.wait')).result?.resultType).toBe('task');
    } finally {
      await app.close();
    }
  });

  it('without a token, by remote address', async () => {
    const { app, url } = await start({ tasks: { maxLiveTasksPerCaller: 1 } });
    try {
      expect((await callAs(url, undefined, 'jobs.wait', {}, '127.0.0.1')).result?.resultType).toBe('task');
      expect((await callAs(url, undefined, 'jobs.wait', {}, '127.0.0.1')).result?.isError).toBe(true);
      expect((await callAs(url, undefined, 'jobs.wait', {}, '127.0.0.2')).result?.resultType).toBe('task');
    } finally {
      await app.close();
    }
  });
});

describe('tasks waiting for input', () => {
  it('are bounded per caller, and one that nobody answers frees its place after inputTimeoutMs, not its TTL', async () => {
    const { app, url } = await start({ auth: true, tasks: { maxWaitingTasksPerCaller: 1, inputTimeoutMs: 60_000 } });
    try {
      const alice = await mintToken(key, { sub: 'alice' });
      const first = await callAs(url, alice, 'jobs.ask', { text: 'one' });
      const taskId = first.result?.taskId as string;
      // The task reaches input_required in the background: wait for it as a client would.
      const get = async () => {
        const { body, headers } = modernRequest('tasks/get', { taskId }, { capabilities: TASKS });
        return messageOf(
          (await postFrom(url, '127.0.0.1', body, { ...headers, 'mcp-name': taskId, authorization: `Bearer ${alice}` })).text
        );
      };
      while ((await get()).result?.status !== 'input_required') await new Promise((resolve) => setImmediate(resolve));

      const second = await callAs(url, alice, 'jobs.ask', { text: 'two' });
      expect(second.result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('(tasks.maxWaitingTasksPerCaller)') }]
      });

      // Past the input deadline (and past the sweep interval): the unanswered task fails, its place is free.
      const later = Date.now() + 61_000;
      jest.spyOn(Date, 'now').mockReturnValue(later);
      const view = await get();
      expect(view.result).toMatchObject({ status: 'failed', statusMessage: expect.stringContaining('tasks.inputTimeoutMs') });
      expect((await callAs(url, alice, 'jobs.ask', { text: 'three' })).result?.resultType).toBe('task');
    } finally {
      await app.close();
    }
  });
});

describe('2025-era sessions per caller', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }
  });

  const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
  const pingStatus = async (url: URL, from: string, session: string | undefined, headers: Record<string, string> = {}) =>
    (await postFrom(url, from, ping, { ...headers, 'mcp-session-id': session!, 'mcp-protocol-version': '2025-11-25' })).status;

  // Refused with 429 only when every session of the caller is busy: test/integration/session-eviction.test.ts.
  it("by principal: a third idle session ends the caller's oldest, not another caller's", async () => {
    const { app, url } = await start({ auth: true, sessions: { maxSessionsPerCaller: 2 } });
    try {
      const alice = { authorization: `Bearer ${await mintToken(key, { sub: 'alice' })}` };
      const bob = { authorization: `Bearer ${await mintToken(key, { sub: 'bob' })}` };
      const bobs = await postFrom(url, '127.0.0.1', initialize, bob);
      const alices = [];
      for (let i = 0; i < 3; i++) alices.push(await postFrom(url, '127.0.0.1', initialize, alice));
      expect(alices.map(({ status }) => status)).toEqual([200, 200, 200]);
      expect(await pingStatus(url, '127.0.0.1', alices[0].session, alice)).toBe(404);
      expect(await pingStatus(url, '127.0.0.1', alices[1].session, alice)).toBe(200);
      expect(await pingStatus(url, '127.0.0.1', bobs.session, bob)).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('without a token, by remote address', async () => {
    const { app, url } = await start({ sessions: { maxSessionsPerCaller: 1 } });
    try {
      const other = await postFrom(url, '127.0.0.2', initialize, {});
      const first = await postFrom(url, '127.0.0.1', initialize, {});
      expect((await postFrom(url, '127.0.0.1', initialize, {})).status).toBe(200);
      expect(await pingStatus(url, '127.0.0.1', first.session)).toBe(404);
      expect(await pingStatus(url, '127.0.0.2', other.session)).toBe(200);
    } finally {
      await app.close();
    }
  });
});
