import { CliError, ExitCode } from '../../../packages/cli/src/cli-error';
import { splitCommandLine } from '../../../packages/cli/src/command-line';
import { parseCommandLine } from '../../../packages/cli/src/options';

const URL_ = 'http://127.0.0.1:3000/mcp';

describe('parseCommandLine', () => {
  it('reads list with a URL, --json, --era, --token and --header', () => {
    expect(parseCommandLine(['list', URL_, '--json', '--era', '2025', '--token', 't0k', '--header', 'X-Team: billing'], {})).toEqual({
      command: 'list',
      target: { kind: 'http', url: new URL(URL_) },
      era: '2025',
      headers: { 'X-Team': 'billing', Authorization: 'Bearer t0k' },
      json: true
    });
  });

  it('takes the token from MCP_TOKEN unless --token is given', () => {
    expect(parseCommandLine(['list', URL_], { MCP_TOKEN: 'env' })).toMatchObject({ headers: { Authorization: 'Bearer env' } });
    expect(parseCommandLine(['list', URL_, '--token=flag'], { MCP_TOKEN: 'env' })).toMatchObject({
      headers: { Authorization: 'Bearer flag' }
    });
  });

  it('reads call: the target, the tool, --arg, --answer; --json {…} is the arguments, a bare --json the output', () => {
    const call = parseCommandLine(['call', URL_, 'billing.refund', '--arg', 'id=3', '--answer', 'confirm=yes', '--json'], {});
    expect(call).toMatchObject({
      command: 'call',
      tool: 'billing.refund',
      argPairs: ['id=3'],
      answers: ['confirm=yes'],
      json: true,
      argsJson: undefined
    });
    const withJson = parseCommandLine(['call', URL_, 'reports.rebuild', '--json', '{"throttleMs": 300}'], {});
    expect(withJson).toMatchObject({ argsJson: '{"throttleMs": 300}', json: false });
  });

  it('reads --stdio as one command line, split like a shell splits words', () => {
    expect(parseCommandLine(['call', '--stdio', "node 'my server.js' --stdio", 'billing.list'], {})).toMatchObject({
      target: { kind: 'stdio', command: 'node', args: ['my server.js', '--stdio'] },
      tool: 'billing.list'
    });
  });

  it('refuses what it does not understand, with the fix, as a usage error', () => {
    const usage = (argv: string[]) => {
      try {
        parseCommandLine(argv, {});
      } catch (error) {
        expect(error).toBeInstanceOf(CliError);
        expect((error as CliError).exitCode).toBe(ExitCode.USAGE);
        return (error as Error).message;
      }
      throw new Error('no error');
    };
    expect(usage(['get', URL_])).toBe(
      'unknown command "get": use init, list, inspect, call, types, inspector, serve, dev or install (mcpfusion --help)'
    );
    expect(parseCommandLine(['init', 'my-server'])).toEqual({ command: 'init', dir: 'my-server' });
    expect(usage(['init'])).toBe('init takes one folder: mcpfusion init [--template <name>] my-server');
    expect(usage(['init', 'a', 'b'])).toBe('init takes one folder: mcpfusion init [--template <name>] my-server');
    expect(usage(['list'])).toMatch(/list needs a server: a URL/);
    expect(usage(['list', 'localhost:3000'])).toMatch(/only http:\/\/ and https:\/\//);
    expect(usage(['list', 'not a url'])).toMatch(/is not a URL/);
    expect(usage(['call', URL_])).toBe('call needs the name of a tool (mcpfusion list shows them)');
    expect(usage(['call', URL_, 'billing.refund', 'id=3'])).toMatch(/unexpected id=3: tool arguments go in --arg/);
    expect(usage(['list', URL_, '--era', '2024'])).toMatch(/--era 2024: use 2025 or 2026/);
    expect(usage(['list', URL_, '--colour'])).toBe('unknown option --colour (mcpfusion --help)');
    expect(usage(['call', URL_, 't', '--arg'])).toBe('--arg needs a value');
    expect(usage(['list', URL_, '--header', 'nocolon'])).toMatch(/--header nocolon: write it as 'Name: value'/);
    expect(usage(['list', URL_, '--arg', 'a=1'])).toMatch(/belong to call/);
  });

  it('reads init --template <name> before or after the folder, and refuses an unknown name by listing the names', () => {
    expect(parseCommandLine(['init', '--template', 'bun', 'my-app'])).toEqual({ command: 'init', dir: 'my-app', template: 'bun' });
    expect(parseCommandLine(['init', 'my-app', '--template=deno'])).toEqual({ command: 'init', dir: 'my-app', template: 'deno' });
    for (const name of ['node', 'bun', 'deno', 'workers', 'hono', 'next'])
      expect(parseCommandLine(['init', '--template', name, 'x'])).toMatchObject({ template: name });
    const usage = (argv: string[]): string => {
      try {
        parseCommandLine(argv, {});
      } catch (error) {
        expect(error).toBeInstanceOf(CliError);
        expect((error as CliError).exitCode).toBe(ExitCode.USAGE);
        return (error as Error).message;
      }
      throw new Error('no error');
    };
    expect(usage(['init', '--template', 'rails', 'my-app'])).toBe(
      'unknown template "rails": use node, bun, deno, workers, hono or next (mcpfusion init --template bun my-server)'
    );
    expect(usage(['init', '--template=Bun', 'my-app'])).toMatch(/^unknown template "Bun": use node, bun,/);
    expect(usage(['init', 'my-app', '--template'])).toBe(
      '--template needs a name: node, bun, deno, workers, hono, next (mcpfusion init --template bun my-server)'
    );
    expect(usage(['init', '--template', '--force', 'my-app'])).toMatch(/^--template needs a name/);
    expect(usage(['init', '--template', 'bun', '--template', 'deno', 'x'])).toBe('init takes one --template');
    expect(usage(['init', '--force', 'x'])).toBe('unknown option --force for init: mcpfusion init [--template <name>] my-server');
    expect(usage(['init', '--template', 'bun'])).toBe('init takes one folder: mcpfusion init [--template <name>] my-server');
  });

  it('answers help and version', () => {
    expect(parseCommandLine([], {})).toEqual({ command: 'help' });
    expect(parseCommandLine(['call', '--help'], {})).toEqual({ command: 'help' });
    expect(parseCommandLine(['--version'], {})).toEqual({ command: 'version' });
  });
});

describe('splitCommandLine', () => {
  it('splits on spaces and keeps quoted words whole', () => {
    expect(splitCommandLine('node build/sample-app/main.js --stdio')).toEqual(['node', 'build/sample-app/main.js', '--stdio']);
    expect(splitCommandLine(`python -c 'print("hi")'  "a b" c\\ d ""`)).toEqual(['python', '-c', 'print("hi")', 'a b', 'c d', '']);
    expect(splitCommandLine('say "a \\"quoted\\" word"')).toEqual(['say', 'a "quoted" word']);
  });

  it('refuses an unclosed quote and an empty line', () => {
    expect(() => splitCommandLine("node 'x")).toThrow("--stdio: unclosed ' in");
    expect(() => splitCommandLine('   ')).toThrow('--stdio needs a command line');
  });
});
