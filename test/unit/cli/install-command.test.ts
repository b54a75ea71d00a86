import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { CLIENT_CONFIGS, type ClientName, type Place } from '../../../packages/cli/src/client-configs';
import { CliError, ExitCode } from '../../../packages/cli/src/cli-error';
import { parseInstall, runInstall } from '../../../packages/cli/src/install-command';
import type { Terminal } from '../../../packages/cli/src/terminal';

/** `mcpfusion install` with a temporary HOME and project folder: the real home is never touched. */
describe('mcpfusion install <client>', () => {
  let work: string;
  let place: Place;
  let stdout: string;
  let stderr: string;
  const terminal = (): Terminal => {
    stdout = '';
    stderr = '';
    const out = new PassThrough();
    const err = new PassThrough();
    out.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    err.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return { out, err, in: new PassThrough(), interactive: false, colour: false } as unknown as Terminal;
  };
  const install = (...argv: string[]) => runInstall(parseInstall(argv), terminal(), place);
  const refusal = (...argv: string[]): CliError => {
    try {
      install(...argv);
    } catch (error) {
      expect(error).toBeInstanceOf(CliError);
      return error as CliError;
    }
    throw new Error('no error');
  };
  const read = (file: string): Record<string, Record<string, unknown>> => JSON.parse(readFileSync(file, 'utf8'));

  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'mcpfusion-install-'));
    mkdirSync(join(work, 'home'));
    mkdirSync(join(work, 'project'));
    place = { env: { HOME: join(work, 'home') }, platform: 'linux', cwd: join(work, 'project') };
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  const clients: Array<{ client: ClientName; file: string[]; key: string; stdio: object; http?: object }> = [
    {
      client: 'claude-desktop',
      file: ['home', '.config', 'Claude', 'claude_desktop_config.json'],
      key: 'mcpServers',
      stdio: { command: 'node', args: ['/srv/my server/main.js', '--stdio'], env: { BILLING_DB: '/tmp/b.db' } }
    },
    {
      client: 'claude-code',
      file: ['project', '.mcp.json'],
      key: 'mcpServers',
      stdio: { command: 'node', args: ['/srv/my server/main.js', '--stdio'], env: { BILLING_DB: '/tmp/b.db' } },
      http: { type: 'http', url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer t' } }
    },
    {
      client: 'cursor',
      file: ['home', '.cursor', 'mcp.json'],
      key: 'mcpServers',
      stdio: { command: 'node', args: ['/srv/my server/main.js', '--stdio'], env: { BILLING_DB: '/tmp/b.db' } },
      http: { url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer t' } }
    },
    {
      client: 'vscode',
      file: ['project', '.vscode', 'mcp.json'],
      key: 'servers',
      stdio: { type: 'stdio', command: 'node', args: ['/srv/my server/main.js', '--stdio'], env: { BILLING_DB: '/tmp/b.db' } },
      http: { type: 'http', url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer t' } }
    }
  ];
  const STDIO = ['--stdio', "node '/srv/my server/main.js' --stdio", '--env', 'BILLING_DB=/tmp/b.db'];
  const HTTP = ['--url', 'http://127.0.0.1:3000/mcp', '--header', 'Authorization: Bearer t'];

  describe.each(clients)('$client', ({ client, file, key, stdio, http }) => {
    const path = () => join(work, ...file);

    it('writes a fresh file (folders made) with the stdio entry, the command line split like a shell', () => {
      expect(install(client, '--name', 'billing', ...STDIO)).toBe(ExitCode.OK);
      expect(read(path())).toEqual({ [key]: { billing: stdio } });
      expect(stderr).toContain(`added "billing" in ${path()}`);
      expect(readdirSync(join(path(), '..'))).toEqual([file[file.length - 1]]); // no temporary file left
    });

    if (http)
      it('writes the HTTP entry for --url', () => {
        install(client, '--name', 'billing', ...HTTP);
        expect(read(path())).toEqual({ [key]: { billing: http } });
      });

    it('keeps the entries and top-level keys already there', () => {
      mkdirSync(join(path(), '..'), { recursive: true });
      writeFileSync(path(), JSON.stringify({ theme: 'dark', [key]: { other: { command: 'other-server' } } }));
      install(client, '--name', 'billing', ...STDIO);
      expect(read(path())).toEqual({ theme: 'dark', [key]: { other: { command: 'other-server' }, billing: stdio } });
    });

    it('refuses a same-named entry without --force (usage error, file unchanged); --force replaces it', () => {
      install(client, '--name', 'billing', '--stdio', 'old-server');
      const before = readFileSync(path(), 'utf8');
      const error = refusal(client, '--name', 'billing', ...STDIO);
      expect(error.message).toMatch(/already has a server named "billing"; nothing was written \(--force replaces it/);
      expect(error.exitCode).toBe(ExitCode.USAGE);
      expect(readFileSync(path(), 'utf8')).toBe(before);
      expect(install(client, '--name', 'billing', ...STDIO, '--force')).toBe(ExitCode.OK);
      expect(read(path())).toEqual({ [key]: { billing: stdio } });
      expect(stderr).toContain('replaced "billing"');
    });

    it('--print prints the resulting file and writes nothing', () => {
      mkdirSync(join(path(), '..'), { recursive: true });
      writeFileSync(path(), JSON.stringify({ [key]: { other: { command: 'x' } } }));
      install(client, '--name', 'billing', ...STDIO, '--print');
      expect(JSON.parse(stdout)).toEqual({ [key]: { other: { command: 'x' }, billing: stdio } });
      expect(read(path())).toEqual({ [key]: { other: { command: 'x' } } });
    });

    it('--print with no file yet creates nothing', () => {
      install(client, '--name', 'billing', ...STDIO, '--print');
      expect(JSON.parse(stdout)).toEqual({ [key]: { billing: stdio } });
      expect(existsSync(path())).toBe(false);
    });

    it('refuses a file that is not valid JSON and leaves it untouched', () => {
      mkdirSync(join(path(), '..'), { recursive: true });
      const text = `{\n  // my servers\n  "${key}": {}\n}\n`;
      writeFileSync(path(), text);
      const error = refusal(client, '--name', 'billing', ...STDIO);
      expect(error.message).toContain(`${path()} is not valid JSON`);
      expect(error.message).toContain('it was left as it is');
      expect(readFileSync(path(), 'utf8')).toBe(text);
      expect(readdirSync(join(path(), '..'))).toEqual([file[file.length - 1]]);
    });

    it(`refuses a file whose "${key}" is not an object`, () => {
      mkdirSync(join(path(), '..'), { recursive: true });
      writeFileSync(path(), JSON.stringify({ [key]: [] }));
      expect(refusal(client, '--name', 'billing', ...STDIO).message).toContain(`"${key}" is not an object`);
    });
  });

  it('claude-desktop refuses --url, naming the clients that take it and the Connectors UI', () => {
    const error = refusal('claude-desktop', '--name', 'billing', ...HTTP);
    expect(error.message).toMatch(/only servers it starts \(--stdio\).*Settings → Connectors.*claude-code, cursor or vscode/);
    expect(existsSync(join(work, 'home', '.config'))).toBe(false);
  });

  it("finds Claude Desktop's file on macOS, on Windows (%APPDATA%) and with XDG_CONFIG_HOME", () => {
    const file = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv) => CLIENT_CONFIGS['claude-desktop'].file({ env, platform, cwd: '/p' });
    expect(file('darwin', { HOME: '/Users/ann' })).toBe('/Users/ann/Library/Application Support/Claude/claude_desktop_config.json');
    expect(file('win32', { APPDATA: join(work, 'Roaming') })).toBe(join(work, 'Roaming', 'Claude', 'claude_desktop_config.json'));
    expect(file('linux', { HOME: '/home/ann', XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/Claude/claude_desktop_config.json');
    expect(file('linux', { HOME: '/home/ann' })).toBe('/home/ann/.config/Claude/claude_desktop_config.json');
  });

  it('writes through a symbolic link: the link stays, its target gets the entry', () => {
    const real = join(work, 'dotfiles-mcp.json');
    writeFileSync(real, '{"mcpServers": {}}');
    mkdirSync(join(work, 'home', '.cursor'));
    symlinkSync(real, join(work, 'home', '.cursor', 'mcp.json'));
    install('cursor', '--name', 'billing', '--url', 'http://127.0.0.1:3000/mcp');
    expect(read(real)).toEqual({ mcpServers: { billing: { url: 'http://127.0.0.1:3000/mcp' } } });
    expect(lstatSync(join(work, 'home', '.cursor', 'mcp.json')).isSymbolicLink()).toBe(true);
  });

  it('a name such as __proto__ is an ordinary key', () => {
    install('cursor', '--name', '__proto__', '--stdio', 'srv');
    expect(readFileSync(join(work, 'home', '.cursor', 'mcp.json'), 'utf8')).toContain('"__proto__": {');
  });

  it('reads the command line, refusing what it does not understand with the fix', () => {
    const usage = (...argv: string[]) => {
      try {
        parseInstall(argv);
      } catch (error) {
        expect((error as CliError).exitCode).toBe(ExitCode.USAGE);
        return (error as Error).message;
      }
      throw new Error('no error');
    };
    expect(usage('zed', '--name', 'x', '--stdio', 'srv')).toMatch(
      /install needs a client first: claude-desktop, claude-code, cursor, vscode/
    );
    expect(usage('cursor', '--stdio', 'srv')).toMatch(/install needs --name/);
    expect(usage('cursor', '--name', 'x')).toMatch(/one of --url <url> or --stdio/);
    expect(usage('cursor', '--name', 'x', '--stdio', 'srv', '--url', 'http://h/mcp')).toMatch(/one of --url <url> or --stdio/);
    expect(usage('cursor', '--name', 'x', '--url', 'ftp://h')).toMatch(/only http:\/\/ and https:\/\//);
    expect(usage('cursor', '--name', 'x', '--url', 'http://h/mcp', '--env', 'A=1')).toMatch(/--env belongs to --stdio/);
    expect(usage('cursor', '--name', 'x', '--stdio', 'srv', '--header', 'A: 1')).toMatch(/--header belongs to --url/);
    expect(usage('cursor', '--name', 'x', '--stdio', 'srv', '--env', 'A')).toMatch(/--env A: write it as KEY=VALUE/);
    expect(usage('cursor', '--name', 'x', '--stdio', "node 'x")).toMatch(/unclosed '/);
    expect(usage('cursor', '--name', 'x', '--stdio', 'srv', '--colour')).toMatch(/install: unexpected --colour/);
    expect(parseInstall(['vscode', '--name', 'b', '--stdio', 'npx -y "@acme/server" --port=0', '--env', 'K=a=b'])).toEqual({
      command: 'install',
      client: 'vscode',
      name: 'b',
      server: { kind: 'stdio', command: 'npx', args: ['-y', '@acme/server', '--port=0'], env: { K: 'a=b' } },
      force: false,
      print: false
    });
  });
});
