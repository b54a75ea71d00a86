import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FusionApp } from '../../src';
import { listenLoopback } from './loopback-server';

/** What a test of the real `mcpfusion serve` starts with: a probe file for `node -r`, and an upstream app to serve. */
export interface ServeProbeSetup {
  /** The probe's path (a temporary folder's `probe.cjs`). */
  readonly probe: string;
  /** The upstream's MCP endpoint (an app with no tools, on a loopback port). */
  readonly upstreamUrl: string;
  /** Stops the upstream and removes the folder. */
  close(): Promise<void>;
}

/** Writes `probeSource` to a temporary `probe.cjs` (its folder named from `prefix`) and serves an empty upstream app on loopback. */
export async function serveProbeSetup(prefix: string, probeSource: string): Promise<ServeProbeSetup> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const probe = join(dir, 'probe.cjs');
  writeFileSync(probe, probeSource);
  const upstream = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [], logger: () => undefined });
  const handler = upstream.createHttpHandler();
  const server = await listenLoopback(createServer((req, res) => void handler.serveNode(req, res)));
  return {
    probe,
    upstreamUrl: server.url.href,
    close: async () => {
      await server.close();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
