import { parseDev } from '../../../packages/cli/src/dev/dev-command';
import { decoratorFlagsHint, formatErrors, parseErrorLine } from '../../../packages/cli/src/dev/compiler-report';

describe('mcpfusion dev: its command line', () => {
  it('defaults to port 3000 and src/app.ts#createApp, as mcpfusion init lays a project out', () => {
    expect(parseDev([], '/p')).toEqual({
      command: 'dev',
      dir: '/p',
      port: 3000,
      app: { module: 'src/app.ts', exportName: 'createApp' },
      inspector: 0
    });
  });

  it('takes --port, --app <module>#<export> and --tsconfig', () => {
    expect(parseDev(['--port', '0', '--app', 'sample-app/app.ts#createBillingApp', '--tsconfig', 'tsconfig.json'], '/p')).toEqual({
      command: 'dev',
      dir: '/p',
      port: 0,
      app: { module: 'sample-app/app.ts', exportName: 'createBillingApp' },
      tsconfig: 'tsconfig.json',
      inspector: 0
    });
  });

  it('serves the browser inspector beside the project on a free port, on --inspector-port M, or not with --no-inspector', () => {
    expect(parseDev(['--inspector-port', '3101'], '/p').inspector).toBe(3101);
    expect(parseDev(['--no-inspector'], '/p').inspector).toBe(false);
    expect(() => parseDev(['--inspector-port', '-1'])).toThrow('--inspector-port: "-1" is not a port number (0–65535)');
  });

  it('refuses what it does not understand, with the fix', () => {
    expect(() => parseDev(['--port', 'x'])).toThrow('--port: "x" is not a port number (0–65535)');
    expect(() => parseDev(['--app', 'src/app.ts'])).toThrow(/--app must be <module>#<export>.*src\/app\.ts#createApp/);
    expect(() => parseDev(['--watch'])).toThrow('dev: unknown option "--watch" (mcpfusion --help)');
    expect(() => parseDev(['--port'])).toThrow('--port needs a value');
  });
});

describe('mcpfusion dev: what tsc reports', () => {
  it('reads tsc --pretty false error lines, with and without a location, and shows them as file:line:column', () => {
    const located = parseErrorLine('src/tools.ts(36,19): error TS1109: Expression expected.');
    expect(located).toEqual({ file: 'src/tools.ts', line: 36, column: 19, code: 'TS1109', message: 'Expression expected.' });
    const global = parseErrorLine("error TS5083: Cannot read file '/p/tsconfig.base.json'.");
    expect(global).toEqual({ code: 'TS5083', message: "Cannot read file '/p/tsconfig.base.json'." });
    expect(parseErrorLine('12:00:01 PM - Found 1 error. Watching for file changes.')).toBeUndefined();
    expect(formatErrors([located!, global!])).toEqual([
      'src/tools.ts:36:19 - error TS1109: Expression expected.',
      "error TS5083: Cannot read file '/p/tsconfig.base.json'."
    ]);
  });

  it('names both decorator flags and the tsconfig to edit when the errors are those of missing flags, and only then', () => {
    const decorator = parseErrorLine(
      'src/tools.ts(40,3): error TS1241: Unable to resolve signature of method decorator when called as an expression.'
    )!;
    const other = parseErrorLine('src/tools.ts(36,19): error TS1109: Expression expected.')!;
    expect(decoratorFlagsHint([other], ['/p/tsconfig.json'], '/p')).toBeUndefined();
    expect(decoratorFlagsHint([other, decorator], ['/p/tsconfig.build.json', '/p/tsconfig.json'], '/p')).toBe(
      'These errors mean the decorator flags are missing. Set "experimentalDecorators": true and "emitDecoratorMetadata": true ' +
        'in "compilerOptions" of tsconfig.json (which tsconfig.build.json extends): the framework needs both.'
    );
  });
});
