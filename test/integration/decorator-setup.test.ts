import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';

/**
 * A newcomer's first mistake, as they make it: a tiny program compiled by tsc WITHOUT
 * `experimentalDecorators` (its input class decorated by class-validator, which then runs
 * before any decorator of ours), run with node against the built package. It must end with the
 * framework's message naming both flags and the tsconfig file, not a class-validator stack.
 */
const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

const PROGRAM = `import 'reflect-metadata';
import { IsInt, Min } from 'class-validator';
import { Action, FusionApp, Input, ToolProvider } from '@mcpfusion/core';

class InvoiceQuery {
  @IsInt() @Min(1) id!: number;
}

@ToolProvider()
class BillingTools {
  @Action('billing.invoice', { description: 'One invoice' })
  invoice(@Input() q: InvoiceQuery) {
    return { id: q.id };
  }
}

const app = FusionApp.create({ tools: [BillingTools] });
void app.listen({ transport: 'http', port: 0 }).then(() => app.close());
`;

/**
 * The same program laid out as the starter is: app.ts imports the framework before ./tools, so
 * the module that loads the framework holds no decorator (main.ts → app.ts → @mcpfusion/core,
 * then ./tools with the decorated classes).
 */
const SPLIT: Record<string, string> = {
  'main.ts': "import 'reflect-metadata';\nimport { createApp } from './app';\n\nvoid createApp().close();\n",
  'app.ts':
    "import { FusionApp } from '@mcpfusion/core';\nimport { BillingTools } from './tools';\n\n" +
    'export function createApp(): FusionApp {\n  return FusionApp.create({ tools: [BillingTools] });\n}\n',
  'tools.ts': PROGRAM.replace("import 'reflect-metadata';\n", '')
    .replace(/\nconst app[\s\S]*$/, '\n')
    .replace('class BillingTools', 'export class BillingTools')
};

/** A project folder outside the repository, the package and its peers linked into its node_modules. */
function project(tsconfig: ts.CompilerOptions, sources: Record<string, string> = { 'main.ts': PROGRAM }): { dir: string; main: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcpfusion-decorators-'));
  mkdirSync(join(dir, 'node_modules', '@mcpfusion'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', '@mcpfusion', 'core'), 'dir');
  for (const peer of ['reflect-metadata', 'class-validator', 'class-transformer', 'tsyringe']) {
    symlinkSync(join(ROOT, 'node_modules', peer), join(dir, 'node_modules', peer), 'dir');
  }
  mkdirSync(join(dir, 'src'));
  for (const [name, text] of Object.entries(sources)) writeFileSync(join(dir, 'src', name), text);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { outDir: 'dist', strict: true } }, null, 2));
  // tsc as the newcomer ran it: the type errors are printed, and the JavaScript is emitted all the same.
  const program = ts.createProgram(
    Object.keys(sources).map((name) => join(dir, 'src', name)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      strict: true,
      skipLibCheck: true,
      outDir: join(dir, 'dist'),
      rootDir: join(dir, 'src'),
      types: [],
      ...tsconfig
    }
  );
  program.emit();
  return { dir, main: join(dir, 'dist', 'main.js') };
}

async function outcome(main: string): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [main], { env: { ...process.env, PORT: '0' } });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('a program compiled without experimentalDecorators', () => {
  const made: string[] = [];
  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/ is not built: run `npm run build` (npm test does) first');
  });
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('ends with a message naming both flags and the tsconfig file, not a class-validator stack trace', async () => {
    const { dir, main } = project({});
    made.push(dir);
    const { code, stderr } = await outcome(main);
    expect(code).not.toBe(0);
    expect(stderr).toContain(`${main} was compiled with TypeScript's standard decorators`);
    expect(stderr).toContain(`Add to "compilerOptions" in ${join(dir, 'tsconfig.json')}:`);
    expect(stderr).toContain('"experimentalDecorators": true,');
    expect(stderr).toContain('"emitDecoratorMetadata": true');
    expect(stderr).not.toContain("reading 'constructor'");
    expect(stderr).not.toContain('class-validator/cjs');
  }, 60_000);

  it('laid out as the starter (the file that imports the framework has no decorator): the same message, naming the decorated file', async () => {
    const { dir } = project({}, SPLIT);
    made.push(dir);
    const { code, stderr } = await outcome(join(dir, 'dist', 'main.js'));
    expect(code).not.toBe(0);
    expect(stderr).toContain(`${join(dir, 'dist', 'tools.js')} was compiled with TypeScript's standard decorators`);
    expect(stderr).toContain(`Add to "compilerOptions" in ${join(dir, 'tsconfig.json')}:`);
    expect(stderr).not.toContain("reading 'constructor'");
  }, 60_000);

  it('the same program with both flags runs, in one file or laid out as the starter (the check reads, it does not guess)', async () => {
    const split = project({ experimentalDecorators: true, emitDecoratorMetadata: true }, SPLIT);
    made.push(split.dir);
    const laidOut = await outcome(join(split.dir, 'dist', 'main.js'));
    expect(laidOut.stderr).not.toContain('standard decorators');
    expect(laidOut.code).toBe(0);

    const { dir, main } = project({ experimentalDecorators: true, emitDecoratorMetadata: true });
    made.push(dir);
    const { code, stderr } = await outcome(main);
    expect(stderr).not.toContain('standard decorators');
    expect(code).toBe(0);
  }, 60_000);
});
