import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { CliError } from '../../../packages/cli/src/cli-error';
import { runInit } from '../../../packages/cli/src/init-command';
import type { Terminal } from '../../../packages/cli/src/terminal';

/** `mcpfusion init` into a temporary folder (scripts/starter/check.sh runs it from the packed tarball and tests what it wrote). */
describe('mcpfusion init <dir>', () => {
  const ROOT = join(__dirname, '..', '..', '..');
  let work: string;
  let said: string;
  const terminal = (): Terminal => {
    said = '';
    const err = new PassThrough();
    err.on('data', (chunk: Buffer) => (said += chunk.toString()));
    return { out: new PassThrough(), err, in: new PassThrough(), interactive: false, colour: false } as unknown as Terminal;
  };
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'mcpfusion-init-'));
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('writes the starter: named after the folder, asking for this version of the framework, and says what to run', () => {
    const dir = join(work, 'My Server');
    expect(runInit({ command: 'init', dir }, terminal())).toBe(0);
    for (const file of ['tsconfig.json', 'jest.config.js', 'Dockerfile', '.gitignore', 'README.md', 'src/tools.ts', 'test/tools.test.ts'])
      expect([file, existsSync(join(dir, file))]).toEqual([file, true]);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(manifest.name).toBe('my-server');
    expect(manifest.dependencies).toMatchObject({
      '@mcpfusion/core': `^${version}`,
      tsyringe: expect.any(String),
      'reflect-metadata': expect.any(String),
      'class-validator': expect.any(String),
      'class-transformer': expect.any(String)
    });
    // The CLI (npx mcpfusion dev, list, call) is a development dependency, of the same release.
    expect(manifest.devDependencies['@mcpfusion/cli']).toBe(`^${version}`);
    expect(Object.keys(manifest.dependencies).filter((name) => name.startsWith('@mcpfusion/'))).toEqual(['@mcpfusion/core']);
    const tsconfig = readFileSync(join(dir, 'tsconfig.json'), 'utf8');
    expect(tsconfig).toContain('"experimentalDecorators": true');
    expect(tsconfig).toContain('"emitDecoratorMetadata": true');
    expect(readFileSync(join(dir, 'src', 'tools.ts'), 'utf8')).toMatch(/@Action\([\s\S]*@Mutation\([\s\S]*@Interactive\(\)/);
    expect(said).toContain('npm install');
    expect(said).toContain('npm test');
    expect(said).toContain('npm start');
    expect(said).toContain('npm run dev');
  });

  it('refuses a folder that is not empty, and changes nothing in it', () => {
    const dir = join(work, 'taken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    expect(() => runInit({ command: 'init', dir }, terminal())).toThrow(CliError);
    expect(() => runInit({ command: 'init', dir }, terminal())).toThrow(/exists and is not empty/);
    expect(existsSync(join(dir, 'package.json'))).toBe(false);
  });
});
