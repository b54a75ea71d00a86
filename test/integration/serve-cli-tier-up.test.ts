import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tierUpFlags } from '../../packages/cli/src/serve-tier-up';
import { CLI_BIN } from '../helpers/cli-bin';
import { serveProbeSetup, type ServeProbeSetup } from '../helpers/serve-probe';

/**
 * `mcpfusion serve` lowers V8's optimization thresholds once the gateway serves (packages/cli/src/serve-tier-up.ts):
 * its start runs at V8's defaults, its per-call code is optimized after fewer calls. Checked in the real program: a
 * probe loaded with `node -r` tells on stderr each flag set, and whether the framework had loaded by then.
 */
const PROBE = String.raw`
const v8 = require('node:v8');
const set = v8.setFlagsFromString;
v8.setFlagsFromString = function (flag) {
  const framework = Object.keys(require.cache).some((f) => /[\\/]dist[\\/]advanced\.js$/.test(f));
  process.stderr.write('probe: flag ' + flag + ' framework ' + framework + '\n');
  return set.call(this, flag);
};
`;

/** The CLI's stderr up to its "listening on" line (it is then stopped). */
async function stderrUntilServing(probe: string, upstreamUrl: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<string> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '-r', probe, CLI_BIN, 'serve', '--url', upstreamUrl, '--port', '0', '--namespace', 'up'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env
    }
  );
  let text = '';
  try {
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('mcpfusion gateway listening on')) resolve();
      });
      child.once('exit', () => reject(new Error(`exited before it served: ${text}`)));
    });
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  }
  return text;
}

describe('mcpfusion serve: V8 optimizes its per-call code sooner', () => {
  let setup: ServeProbeSetup;
  const { MCPFUSION_TIER_UP: _, NODE_OPTIONS: __, ...env } = process.env;

  beforeAll(async () => {
    setup = await serveProbeSetup('serve-tier-up-', PROBE);
  });

  afterAll(async () => {
    await setup.close();
  });

  it("sets this Node's flags once the framework is loaded and the gateway serves, before it says so", async () => {
    const flags = tierUpFlags(process.versions.v8);
    expect(flags.length).toBeGreaterThan(0); // Node 20, 22 and 24 each have theirs
    const stderr = await stderrUntilServing(setup.probe, setup.upstreamUrl, env);
    const set = [...stderr.matchAll(/probe: flag (\S+) framework (true|false)\n/g)];
    expect(set.map((match) => match[1])).toEqual(flags);
    expect(set.every((match) => match[2] === 'true')).toBe(true);
    expect(stderr.indexOf('probe: flag')).toBeLessThan(stderr.indexOf('mcpfusion gateway listening on'));
    expect(stderr).not.toContain('unrecognized flag');
  }, 30_000);

  it("sets none with MCPFUSION_TIER_UP=0, or of a flag given on Node's command line", async () => {
    expect(await stderrUntilServing(setup.probe, setup.upstreamUrl, { ...env, MCPFUSION_TIER_UP: '0' })).not.toContain('probe: flag');
    const [first, ...rest] = tierUpFlags(process.versions.v8);
    const stderr = await stderrUntilServing(setup.probe, setup.upstreamUrl, env, [first!.replace(/=\d+$/, '=70000')]);
    expect([...stderr.matchAll(/probe: flag (\S+)/g)].map((match) => match[1])).toEqual(rest);
  }, 30_000);
});
