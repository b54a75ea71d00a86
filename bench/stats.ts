/** Latency figures of one scenario, in microseconds. */
export interface Stats {
  readonly median: number;
  readonly p99: number;
  readonly callsPerSecond: number;
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median, p99 and throughput of sequential samples (each in ms). */
export function summarize(samplesMs: readonly number[]): Stats {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const total = samplesMs.reduce((sum, v) => sum + v, 0);
  return { median: at(0.5) * 1000, p99: at(0.99) * 1000, callsPerSecond: samplesMs.length / (total / 1000) };
}

/** Times `count` sequential calls of `fn`; returns per-call milliseconds. */
export async function timeCalls(count: number, fn: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fn();
    samples[i] = performance.now() - start;
  }
  return samples;
}

/** Every contender's samples, round by round. */
export type RoundSamples = Record<string, number[][]>;

/**
 * Runs the contenders in alternating rounds so machine noise (other processes on a shared
 * box) hits each of them alike, and rotates the order every round so that no contender always
 * runs right after the same other one. (A forced GC before each turn was tried: it shrinks the
 * young generation and slows every contender, the framework most.)
 */
export async function interleave(
  rounds: number,
  perRound: number,
  contenders: Record<string, () => Promise<unknown>>
): Promise<RoundSamples> {
  const samples: RoundSamples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (const [, fn] of Object.entries(contenders)) await timeCalls(Math.min(1000, perRound), fn); // warm-up
  const entries = Object.entries(contenders);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < entries.length; i++) {
      const [name, fn] = entries[(i + r) % entries.length];
      samples[name].push(await timeCalls(perRound, fn));
    }
  }
  return samples;
}

/**
 * The ratio of two contenders: the median over rounds of the ratio of their round medians
 * (each round's pair ran back to back, under the same machine load).
 */
export function ratioOf(samples: RoundSamples, name: string, base: string): number {
  return median(samples[name].map((round, r) => median(round) / median(samples[base][r])));
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** The two header lines of a table of `rowOf` rows: `heading` over the labels, then the figures' columns. */
export function tableHead(heading: string, ratioDigits = 2): string[] {
  const ratioWidth = ratioDigits + 4;
  return [
    `| ${heading.padEnd(52)} | median µs |  p99 µs |  calls/s | ${'ratio'.padStart(ratioWidth)} |`,
    `|${'-'.repeat(54)}|----------|----------|----------|${'-'.repeat(ratioWidth + 2)}|`
  ];
}

/**
 * One row of a latency table: the contender's median and p99 (µs), its calls per second, and its
 * ratio to `base` (see `ratioOf`; 1 without a base) with `ratioDigits` decimals, the column one
 * wider for each digit beyond two.
 */
export function rowOf(samples: RoundSamples, label: string, name: string, base?: string, ratioDigits = 2): string {
  const s = summarize(samples[name].flat());
  const ratio = `${fmt(base ? ratioOf(samples, name, base) : 1, ratioDigits)}x`;
  return `| ${label.padEnd(52)} | ${fmt(s.median).padStart(8)} | ${fmt(s.p99).padStart(8)} | ${fmt(s.callsPerSecond, 0).padStart(8)} | ${ratio.padStart(ratioDigits + 4)} |`;
}
