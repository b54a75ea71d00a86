import { join } from 'node:path';
import { branchFromEnv, DEFAULT_BRANCH_DB } from './front/branch-config';

/** How front-main.ts reads its branch from FRONT_BRANCH (and BRANCH_DB for the branch it spawns by default). */
describe('branchFromEnv', () => {
  const dir = join('build', 'sample-app');

  it('a URL is the branch as written (proxy() checks it)', () => {
    expect(branchFromEnv({ FRONT_BRANCH: ' http://127.0.0.1:3000/mcp ' }, dir)).toBe('http://127.0.0.1:3000/mcp');
  });

  it('anything else is a command line, split on spaces', () => {
    expect(branchFromEnv({ FRONT_BRANCH: 'node  build/sample-app/main.js --stdio' }, dir)).toEqual({
      command: 'node',
      args: ['build/sample-app/main.js', '--stdio']
    });
  });

  it('unset or blank: a second desk beside this file, over stdio, on BRANCH_DB (default .data/branch.db)', () => {
    for (const env of [{}, { FRONT_BRANCH: '  ' }]) {
      const target = branchFromEnv({ ...env, KEEP: 'me' }, dir) as { command: string; args: string[]; env: Record<string, string> };
      expect(target).toEqual({
        command: process.execPath,
        args: [join(dir, 'main.js'), '--stdio'],
        env: expect.objectContaining({ KEEP: 'me', BILLING_DB: DEFAULT_BRANCH_DB }) as unknown
      });
    }
    expect(branchFromEnv({ BRANCH_DB: '/tmp/b.db' }, dir)).toMatchObject({ env: { BILLING_DB: '/tmp/b.db' } });
  });
});
