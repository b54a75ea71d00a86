import { setFlagsFromString } from 'node:v8';

/**
 * `mcpfusion serve` asks V8 to optimize its code after fewer calls than V8's defaults.
 *
 * A gateway runs the same few hundred functions once per proxied call: the HTTP entry, the lane, the chain, the
 * upstream client. V8 keeps a function in its baseline tiers until it has run for a budget:
 * - V8 11 (Node 20): an interrupt budget, 67,584 by default;
 * - V8 12 and 13 (Node 22, 24): invocation counts, 3,000 for TurboFan and 400 for Maglev by default.
 * So the gateway's per-call code was still not optimized after thousands of calls. With these flags, set once the
 * gateway serves, sequential calls took 0.83x to 0.97x the time and 0.78x to 1.14x the gateway's CPU on Node 20, 22
 * and 24, in interleaved runs against the same gateway without them; the start is unchanged. Set before the start,
 * they delayed the first answer by about 80 ms (V8 optimized start-up code that runs once). docs/gateway.md, "V8's
 * thresholds", has the runs.
 *
 * The flag names change between V8 versions, and V8 prints an error for a flag it does not know, so a version not
 * listed here gets none.
 */
export function tierUpFlags(v8Version: string): readonly string[] {
  const major = Number.parseInt(v8Version, 10);
  if (major === 11) return ['--interrupt-budget=16000'];
  if (major === 12 || major === 13) return ['--invocation-count-for-turbofan=500', '--invocation-count-for-maglev=100'];
  return [];
}

/** The environment variable that turns the flags off (`0`). */
export const TIER_UP_ENV = 'MCPFUSION_TIER_UP';

/**
 * The flags `serve` sets in this process: none when `MCPFUSION_TIER_UP=0`, and none of a flag the user already gave
 * Node on its command line (Node refuses these in `NODE_OPTIONS`): their value stands.
 */
export function chosenTierUpFlags(v8Version: string, env: NodeJS.ProcessEnv, execArgv: readonly string[]): readonly string[] {
  if (env[TIER_UP_ENV] === '0') return [];
  const given = execArgv.map((arg) => arg.split('=')[0]!.replace(/_/g, '-'));
  return tierUpFlags(v8Version).filter((flag) => !given.includes(flag.split('=')[0]!));
}

/**
 * Sets the chosen flags in this process (see {@link tierUpFlags}); returns those set. A runtime that only looks like
 * Node here (Bun and Deno give a `process.versions.v8` too) may not implement `setFlagsFromString`: a flag it refuses
 * is left unset, and serve goes on.
 */
export function tierUp(): readonly string[] {
  return chosenTierUpFlags(process.versions.v8, process.env, process.execArgv).filter((flag) => {
    try {
      setFlagsFromString(flag);
      return true;
    } catch {
      return false;
    }
  });
}
