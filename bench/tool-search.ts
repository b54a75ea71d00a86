/**
 * What `toolSearch` buys on a large catalog: the `tools/list` payload with and without it, and
 * recall@5 of the search on a query set written from the tools' descriptions. The catalog is the
 * sample app's tools (listed by a real SDK client from the real app) and the fixture of
 * test/fixtures/tool-search/catalog.json (server-everything and server-filesystem as a gateway
 * would name them, and generated domains); the queries are test/fixtures/tool-search/queries.json.
 * test/unit/tool-search/recall.test.ts asserts the goal (recall@5 ≥ 0.9) on the same measure.
 *
 *   npm run bench:tool-search        (npm run compile, then node build/bench/tool-search.js)
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/server';
import { ToolIndex } from '@mcpfusion/core/advanced';
import { connectTestClient } from '@mcpfusion/core/testing';
import { createBillingApp } from '../sample-app/app';

/** One query of the set and the tools it should find. */
export interface SearchQuery {
  readonly query: string;
  readonly expect: readonly string[];
}

/** What the measurement found. */
export interface ToolSearchFigures {
  /** Tools in the catalog. */
  readonly tools: number;
  readonly queries: number;
  /** `tools/list` result bytes (JSON) of the whole catalog, and with `toolSearch` (what the sample app lists with it). */
  readonly listBytes: { readonly full: number; readonly withSearch: number };
  /** Mean over the queries of the share of their expected tools found in the top 5. */
  readonly recallAt5: number;
  /** Mean reciprocal rank of the first expected tool (0 when not in the top 5). */
  readonly mrrAt5: number;
  /** The queries that missed a tool, with what came back. */
  readonly misses: readonly { query: string; expect: readonly string[]; got: readonly string[] }[];
  /** Bytes of a search answer (top 5) on average: what a model reads instead of the whole list. */
  readonly meanSearchResultBytes: number;
  /** Median time of one search, in microseconds (the index built). */
  readonly searchMedianUs: number;
}

/** Where the fixtures are, from the sources (jest) or from build/bench (compiled). */
function fixture(name: string): string {
  for (const root of [join(__dirname, '..'), join(__dirname, '..', '..')]) {
    try {
      return readFileSync(join(root, 'test', 'fixtures', 'tool-search', name), 'utf8');
    } catch {
      // Not from this root: the other one.
    }
  }
  throw new Error(`test/fixtures/tool-search/${name} not found`);
}

/** The catalog's tools: the sample app's (as a real client lists them), then the fixture's. */
async function catalogAndFront(): Promise<{ tools: Tool[]; front: Tool[] }> {
  const plain = createBillingApp({ dbPath: ':memory:' });
  const searched = createBillingApp({ dbPath: ':memory:', toolSearch: true });
  try {
    const listed = await connectTestClient(plain);
    const fronted = await connectTestClient(searched);
    const own = (await listed.client.listTools()).tools as Tool[];
    const front = (await fronted.client.listTools()).tools as Tool[];
    await Promise.all([listed.close(), fronted.close()]);
    const fixtureTools = (JSON.parse(fixture('catalog.json')) as { tools: Tool[] }).tools;
    return { tools: [...own, ...fixtureTools], front };
  } finally {
    await Promise.all([plain.close(), searched.close()]);
  }
}

/** Runs the measurement. */
export async function measureToolSearch(): Promise<ToolSearchFigures> {
  const { tools, front } = await catalogAndFront();
  const queries = (JSON.parse(fixture('queries.json')) as { queries: SearchQuery[] }).queries;
  const index = new ToolIndex(tools);
  const known = new Set(tools.map((tool) => tool.name));
  for (const { query, expect } of queries)
    for (const name of expect) if (!known.has(name)) throw new Error(`query "${query}" expects ${name}, which is not in the catalog`);
  let recall = 0;
  let reciprocal = 0;
  let resultBytes = 0;
  const misses: ToolSearchFigures['misses'][number][] = [];
  for (const { query, expect } of queries) {
    const found = index.search(query, 5);
    const got = found.map((tool) => tool.name);
    const hits = expect.filter((name) => got.includes(name)).length;
    recall += hits / expect.length;
    const first = got.findIndex((name) => expect.includes(name));
    reciprocal += first < 0 ? 0 : 1 / (first + 1);
    resultBytes += Buffer.byteLength(JSON.stringify({ tools: found }));
    if (hits < expect.length) misses.push({ query, expect, got });
  }
  const times: number[] = [];
  for (let round = 0; round < 20; round++)
    for (const { query } of queries) {
      const start = process.hrtime.bigint();
      index.search(query, 5);
      times.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  times.sort((a, b) => a - b);
  // A catalog's front also has the tools pinned (none here): its size does not grow with the catalog.
  const frontFor = front.map((tool) =>
    tool.name === 'search_tools'
      ? { ...tool, description: tool.description?.replace(/\(\d+ of them\)/, `(${tools.length} of them)`) }
      : tool
  );
  return {
    tools: tools.length,
    queries: queries.length,
    listBytes: { full: Buffer.byteLength(JSON.stringify({ tools })), withSearch: Buffer.byteLength(JSON.stringify({ tools: frontFor })) },
    recallAt5: recall / queries.length,
    mrrAt5: reciprocal / queries.length,
    misses,
    meanSearchResultBytes: Math.round(resultBytes / queries.length),
    searchMedianUs: times[Math.floor(times.length / 2)]
  };
}

if (require.main === module) {
  void measureToolSearch().then((figures) => {
    const { listBytes } = figures;
    const lines = [
      `tool search on ${figures.tools} tools, ${figures.queries} queries`,
      `tools/list bytes: ${listBytes.full} without search, ${listBytes.withSearch} with it (${((listBytes.withSearch / listBytes.full) * 100).toFixed(1)}%)`,
      `a search answer (top 5): ${figures.meanSearchResultBytes} bytes on average`,
      `recall@5: ${figures.recallAt5.toFixed(3)}   MRR@5: ${figures.mrrAt5.toFixed(3)}   one search: ${figures.searchMedianUs.toFixed(0)} µs median`,
      ...figures.misses.map((miss) => `  missed: "${miss.query}" expects ${miss.expect.join(' | ')}, got ${miss.got.join(', ')}`)
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  });
}
