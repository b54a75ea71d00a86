import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transformFileSync } from '@swc/core';
import { transformSync as esbuildTransform } from 'esbuild';
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

/** Compiles a project's `src/*.ts` files (named) into its `dist/`. */
type Compile = (dir: string, names: readonly string[]) => void;

/** swc as `swc src -d dist` or @swc/jest run it, with the given `jsc.transform` options. */
const bySwc =
  (transform: Record<string, unknown>): Compile =>
  (dir, names) => {
    mkdirSync(join(dir, 'dist'), { recursive: true });
    for (const name of names) {
      const { code } = transformFileSync(join(dir, 'src', name), {
        jsc: { parser: { syntax: 'typescript', decorators: true }, transform, target: 'es2022' },
        module: { type: 'commonjs' },
        swcrc: false
      });
      writeFileSync(join(dir, 'dist', name.replace(/\.ts$/, '.js')), code);
    }
  };

/** esbuild as tsx and vitest's default transform run it: no type metadata, whatever tsconfig says. */
const byEsbuild =
  (compilerOptions: Record<string, unknown>): Compile =>
  (dir, names) => {
    mkdirSync(join(dir, 'dist'), { recursive: true });
    for (const name of names) {
      const { code } = esbuildTransform(readFileSync(join(dir, 'src', name), 'utf8'), {
        loader: 'ts',
        format: 'cjs',
        target: 'es2022',
        tsconfigRaw: { compilerOptions }
      });
      writeFileSync(join(dir, 'dist', name.replace(/\.ts$/, '.js')), code);
    }
  };

/** A project folder outside the repository, the package and its peers linked into its node_modules. */
function project(
  tsconfig: ts.CompilerOptions,
  sources: Record<string, string> = { 'main.ts': PROGRAM },
  compile?: Compile
): { dir: string; main: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcpfusion-decorators-'));
  mkdirSync(join(dir, 'node_modules', '@mcpfusion'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', '@mcpfusion', 'core'), 'dir');
  for (const peer of ['reflect-metadata', 'class-validator', 'class-transformer', 'tsyringe']) {
    symlinkSync(join(ROOT, 'node_modules', peer), join(dir, 'node_modules', peer), 'dir');
  }
  mkdirSync(join(dir, 'src'));
  for (const [name, text] of Object.entries(sources)) writeFileSync(join(dir, 'src', name), text);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { outDir: 'dist', strict: true } }, null, 2));
  if (compile) {
    compile(dir, Object.keys(sources));
    return { dir, main: join(dir, 'dist', 'main.js') };
  }
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
    expect(stderr).toContain(`${main} was compiled with standard (TC39) decorators`);
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
    expect(stderr).toContain(`${join(dir, 'dist', 'tools.js')} was compiled with standard (TC39) decorators`);
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

describe('the same program compiled by swc or esbuild instead of tsc', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  // Laid out as the starter: standard decorators have no parameter decorators, and swc leaves
  // `@Input()` as written, which Node cannot parse; the check reads tools.js (beside app.js, which
  // loads the framework first) before Node parses it, and names the options.
  it.each(['2022-03', '2023-11'])(
    "swc with standard decorators (decoratorVersion %s) stops when the framework loads, naming swc's own two options",
    async (decoratorVersion) => {
      const { dir, main } = project({}, SPLIT, bySwc({ decoratorVersion }));
      made.push(dir);
      const { code, stderr } = await outcome(main);
      expect(code).not.toBe(0);
      expect(stderr).toContain(`${join(dir, 'dist', 'tools.js')} was compiled by swc with standard (TC39) decorators`);
      expect(stderr).toContain('"legacyDecorator": true, "decoratorMetadata": true');
      expect(stderr).toContain(join(dir, 'tsconfig.json'));
      expect(stderr).not.toContain('SyntaxError');
    },
    60_000
  );

  it('swc with legacy decorators and their metadata (what @swc/jest is given) runs', async () => {
    const { dir, main } = project({}, SPLIT, bySwc({ legacyDecorator: true, decoratorMetadata: true }));
    made.push(dir);
    const { code, stderr } = await outcome(main);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it("swc with legacy decorators but no metadata stops at @Input(), naming swc's decoratorMetadata", async () => {
    const { dir, main } = project({}, SPLIT, bySwc({ legacyDecorator: true }));
    made.push(dir);
    const { code, stderr } = await outcome(main);
    expect(code).not.toBe(0);
    expect(stderr).toContain('BillingTools.invoice: no type metadata for @Input()');
    expect(stderr).toContain('"decoratorMetadata"');
  }, 60_000);

  it("esbuild (tsx, vitest's default) with experimentalDecorators stops at @Input(), naming tsx and vitest", async () => {
    const { dir, main } = project({}, SPLIT, byEsbuild({ experimentalDecorators: true, emitDecoratorMetadata: true }));
    made.push(dir);
    const { code, stderr } = await outcome(main);
    expect(code).not.toBe(0);
    expect(stderr).toContain('no type metadata for @Input()');
    expect(stderr).toContain('do not build with esbuild, which drops it');
    expect(stderr).toContain("tsx and vitest's default transform are esbuild-based");
  }, 60_000);
});
