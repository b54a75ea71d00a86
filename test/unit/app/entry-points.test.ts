import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';

/**
 * What the package root loads: `app.callTool` works without a side-effect import, so the
 * production entry point loads nothing of the test client (src/testing/). Read from the
 * compiled package in a child process, where `require.cache` lists every module loaded.
 */
const ROOT = join(__dirname, '..', '..', '..');
const DIST = join(ROOT, 'dist');

/** The modules of dist/ that requiring `entry` loads, as paths relative to dist/. */
async function loadedBy(entry: string): Promise<string[]> {
  if (!existsSync(join(DIST, entry))) throw new Error(`${join(DIST, entry)} is missing: build first (npm run build)`);
  const script = `require(${JSON.stringify(join(DIST, entry))}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: ROOT });
  return (JSON.parse(stdout) as string[])
    .filter((file) => file.startsWith(DIST + sep))
    .map((file) => relative(DIST, file).split(sep).join('/'));
}

describe('the entry points of the package', () => {
  it('the root (@mcpfusion/core) loads no module of src/testing/, and loads what app.callTool runs (src/direct/)', async () => {
    const loaded = await loadedBy('index.js');
    expect(loaded.filter((file) => file.startsWith('testing/'))).toEqual([]);
    expect(loaded).toContain('direct/direct-call.js');
  });

  it('@mcpfusion/core/testing loads the test client', async () => {
    const loaded = await loadedBy('testing/index.js');
    expect(loaded).toContain('testing/test-client.js');
  });
});
