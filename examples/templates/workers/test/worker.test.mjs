// The Worker under `wrangler dev` (workerd, on 127.0.0.1, no Cloudflare account needed), driven by
// a real SDK client. Run with `npm test` (node:test); `wrangler dev` runs `npm run build` first.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const WRANGLER = new URL('../node_modules/.bin/wrangler', import.meta.url).pathname;
let wrangler;
let url;

before(async () => {
  wrangler = spawn(
    WRANGLER,
    [
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      '0',
      '--inspector-port',
      '0',
      '--show-interactive-dev-session=false',
      '--var',
      `STATE_KEY:${randomBytes(32).toString('base64url')}`,
      '--var',
      'ENVIRONMENT:development'
    ],
    {
      cwd: new URL('..', import.meta.url).pathname,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe']
    }
  );
  url = await new Promise((resolve, reject) => {
    let seen = '';
    const read = (chunk) => {
      seen += chunk.toString();
      if (/Uncaught|runtime failed to start/.test(seen)) reject(new Error(`the Worker failed to load:\n${seen}`));
      const match = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match) resolve(new URL('/mcp', match[1]));
    };
    wrangler.stdout.on('data', read);
    wrangler.stderr.on('data', read);
    wrangler.once('exit', (code) => reject(new Error(`wrangler dev exited (${code}) before it was ready:\n${seen}`)));
  });
});

after(async () => {
  if (wrangler && wrangler.exitCode === null && wrangler.signalCode === null) {
    const exited = once(wrangler, 'exit');
    wrangler.kill('SIGTERM');
    await exited;
  }
});

async function connect(pin) {
  const client = new Client(
    { name: 'workers-template-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin } } }
  );
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { confirm: true } }));
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

test('a 2026-07-28 client lists the tools, imports with progress and answers the question', async () => {
  const client = await connect('2026-07-28');
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    assert.deepEqual(names, ['greet', 'notes.add', 'notes.clear', 'notes.import', 'notes.list']);
    const greeted = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    assert.equal(greeted.content[0].text, 'Hello, Ada!');
    const refused = await client.callTool({ name: 'greet', arguments: { name: '' } });
    assert.equal(refused.isError, true);
    const seen = [];
    const imported = await client.callTool(
      { name: 'notes.import', arguments: { texts: ['a', 'b'] } },
      { onprogress: (update) => seen.push(update.progress) }
    );
    assert.equal(imported.content[0].text, 'Imported 2 notes.');
    assert.deepEqual(seen, [1, 2]);
    const cleared = await client.callTool({ name: 'notes.clear', arguments: {} });
    assert.match(cleared.content[0].text, /^Deleted \d+ notes\.$/);
  } finally {
    await client.close();
  }
});

test('a 2025-11-25 client is refused (the Worker keeps no sessions), naming the version it serves', async () => {
  await assert.rejects(connect('2025-11-25'), /2026-07-28/);
});
