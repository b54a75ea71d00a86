import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CLI_BIN } from '../test/helpers/cli-bin';

/**
 * `mcpfusion serve` runs no code of the folder it is started in, so it starts from any folder:
 * here one with its own copy of reflect-metadata (which an app with the project's classes is
 * refused for, see test/unit/di/injection-check.test.ts). The compiled CLI is run there, in
 * front of a bare SDK server over stdio, and a real client of each era lists and calls through it.
 */

const UPSTREAM = join(__dirname, '..', 'build', 'test', 'fixtures', 'passthrough-upstream.js');

describe('mcpfusion serve from a folder with its own reflect-metadata', () => {
  let folder: string;
  let child: ChildProcess;
  let url: URL;
  let stderr = '';

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'serve-folder-'));
    cpSync(dirname(require.resolve('reflect-metadata')), join(folder, 'node_modules', 'reflect-metadata'), { recursive: true });
    child = spawn(process.execPath, [CLI_BIN, 'serve', '--stdio', `${process.execPath} ${UPSTREAM}`, '--port', '0'], {
      cwd: folder,
      stdio: ['ignore', 'ignore', 'pipe']
    });
    url = await new Promise<URL>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on (\S+)/.exec(stderr);
        if (match) resolve(new URL(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`mcpfusion serve exited (${String(code)}) before listening:\n${stderr}`)));
    });
  }, 60_000);
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  });

  it.each(['2025', '2026'] as const)(
    'starts, and serves the upstream to a %s-era client',
    async (era) => {
      expect(stderr).not.toMatch(/Two copies/);
      const client = new Client(
        { name: `serve-folder-${era}`, version: '1.0.0' },
        { versionNegotiation: { mode: era === '2026' ? { pin: '2026-07-28' } : 'legacy' } }
      );
      await client.connect(new StreamableHTTPClientTransport(url));
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['plain', 'asks', 'job']));
        const result = await client.callTool({ name: 'plain', arguments: {} });
        expect(result.content).toEqual([{ type: 'text', text: 'plain' }]);
      } finally {
        await client.close();
      }
    },
    30_000
  );
});
