import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnvText } from '../../../src/gateway/config/env-file';
import { expandVariables, parseServersConfig, serversFromConfig } from '../../../src/gateway/config/servers-config';

const expand = (text: string, env: NodeJS.ProcessEnv) => {
  const problems: string[] = [];
  return { text: expandVariables(text, env, (problem) => problems.push(problem)), problems };
};

describe('${…} in a config', () => {
  test('${VAR:-default} takes the default when VAR is unset or empty, as a shell does', () => {
    expect(expand('http://${HOST:-127.0.0.1}:${PORT:-3000}/mcp', {})).toEqual({ text: 'http://127.0.0.1:3000/mcp', problems: [] });
    expect(expand('${PORT:-3000}', { PORT: '' })).toEqual({ text: '3000', problems: [] });
    expect(expand('${PORT:-3000}', { PORT: '8080' })).toEqual({ text: '8080', problems: [] });
    expect(expand('${env:TOKEN:-none}', {})).toEqual({ text: 'none', problems: [] });
    expect(expand('${A:-}', {})).toEqual({ text: '', problems: [] });
  });

  test('a form it does not know is a problem that says which forms it knows', () => {
    expect(expand('${workspaceFolder}/x', {}).problems).toEqual(['${workspaceFolder} is not set in the environment.']);
    expect(expand('${input:token}', {}).problems[0]).toMatch(
      /is not a variable this file may use \(write \$\{NAME\}, \$\{env:NAME\} or \$\{NAME:-default\}\)/
    );
  });
});

describe('envFile', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'envfile-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a dotenv text: bare, quoted and exported values, comments', () => {
    const problems: string[] = [];
    const vars = parseEnvText(
      ['# keys', 'A=1', 'export B = two words # note', "C='as #written\\n'", 'D="line\\nnext \\"q\\""', '', 'E='].join('\n'),
      '.env',
      (p) => problems.push(p)
    );
    expect(problems).toEqual([]);
    expect(vars).toEqual({ A: '1', B: 'two words', C: 'as #written\\n', D: 'line\nnext "q"', E: '' });
  });

  test('a line that is not NAME=value, or a quote left open, names its line', () => {
    const problems: string[] = [];
    parseEnvText('A=1\nnot a line\nB="open', '.env', (p) => problems.push(p));
    expect(problems).toEqual(['.env:2: expected NAME=value.', '.env:3: a quote is not closed.']);
  });

  test('read relative to the config file; env wins over the file', () => {
    writeFileSync(join(dir, 'server.env'), 'API_KEY=from-file\nREGION=eu\n');
    const config = JSON.stringify({ servers: { api: { type: 'stdio', command: 'node', envFile: 'server.env', env: { REGION: 'us' } } } });
    const [server] = parseServersConfig(config, join(dir, 'mcp.json'), {}, dir);
    expect(server.target).toMatchObject({ kind: 'stdio', env: { API_KEY: 'from-file', REGION: 'us' } });
  });

  test('a missing file, or an envFile on a url entry, is a problem naming the entry', () => {
    expect(() => serversFromConfig({ servers: { api: { command: 'node', envFile: 'absent.env' } } }, 'mcp.json', {}, dir)).toThrow(
      /servers\."api"\.envFile: cannot read .*absent\.env: ENOENT/
    );
    expect(() =>
      serversFromConfig({ mcpServers: { web: { url: 'http://127.0.0.1:1/mcp', envFile: 'x.env' } } }, 'mcp.json', {}, dir)
    ).toThrow('mcpServers."web".envFile: only a stdio entry (command) has an environment.');
  });
});
