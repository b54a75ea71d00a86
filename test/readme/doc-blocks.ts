import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

/** A fenced code block of a page, with where it is. */
export interface DocBlock {
  readonly page: string;
  readonly line: number;
  readonly code: string;
}

const ROOT = join(__dirname, '..', '..');
/** Where the blocks are compiled, each as a module of its own (virtual files): their `./billing` is the support module here. */
const BLOCKS = join(__dirname, 'blocks');

/**
 * Type-checks every TypeScript block as shown, each a module of its own with only the imports it
 * writes (the package's entry points map to src/, `./billing` is test/readme/blocks/billing.ts,
 * "your own code"). The options are the repository's (legacy decorators with metadata, strict),
 * as an ES module, so a block may `await` at its top level; unused names are allowed (a block
 * shows a class it does not use). The diagnostics, one line each, naming the page and line.
 */
export function compileBlocks(blocks: readonly DocBlock[]): string[] {
  const templateFiles = templateSources();
  const files = new Map(
    blocks
      .filter((block) => !templateFiles.has(block.code))
      .map((block) => [starterFileOf(block) ?? join(BLOCKS, `${block.page.replace(/\W+/g, '-')}-${block.line}.ts`), block] as const)
  );
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    moduleDetection: ts.ModuleDetectionKind.Force,
    types: ['node', 'jest'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
    baseUrl: ROOT,
    paths: {
      '@mcpfusion/core': ['./src/index.ts'],
      '@mcpfusion/core/testing': ['./src/testing/index.ts'],
      '@mcpfusion/core/redis': ['./src/redis/index.ts'],
      '@mcpfusion/core/advanced': ['./src/advanced.ts']
    }
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const block = files.get(name);
    return block ? ts.createSourceFile(name, block.code, language, true) : read(name, language, ...rest);
  };
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(name) || exists(name);
  const program = ts.createProgram([...files.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && files.has(d.file.fileName))
    .map((d) => {
      const block = files.get(d.file!.fileName)!;
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${block.page}:${block.line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}

/** The starter's file a block shows whole (getting-started's steps), compiled where it is so its `./notes` resolves. */
function starterFileOf(block: DocBlock): string | undefined {
  const dir = join(ROOT, 'examples', 'starter', 'src');
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .find((file) => readFileSync(file, 'utf8') === block.code);
}

/**
 * The sources of the deploy templates' files (examples/templates/<name>/). A block that shows one
 * whole (docs/deploy.md) is left out of the compile: its imports (`hono`, the template's own
 * modules) resolve only in the template, whose target suite (test/integration/targets/) compiles
 * it. A block that drifts from its file is compiled like any other, and fails on those imports.
 */
function templateSources(): Set<string> {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      if (entry.isDirectory()) return ['node_modules', 'dist', 'build', '.next'].includes(entry.name) ? [] : files(join(dir, entry.name));
      return entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [];
    });
  return new Set(files(join(ROOT, 'examples', 'templates')).map((file) => readFileSync(file, 'utf8')));
}
