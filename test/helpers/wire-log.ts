import type { Client } from '@modelcontextprotocol/client';

/** A JSON-RPC message as the client received it. */
export type WireMessage = { id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

/**
 * Records every message the client's transport delivers, in arrival order. The v2 client
 * can drop the last onprogress callback when it arrives with the result (SDK issue 2580),
 * so ordering is asserted on the messages received, not on the callbacks.
 */
export function recordWire(client: Client): WireMessage[] {
  const transport = (client as unknown as { transport?: { onmessage?: (m: unknown, extra?: unknown) => void } }).transport;
  if (!transport) throw new Error('connect the client first');
  const log: WireMessage[] = [];
  const original = transport.onmessage;
  transport.onmessage = (message, extra) => {
    log.push(message as WireMessage);
    original?.(message, extra);
  };
  return log;
}

/** Resolves when `predicate` holds, checking after each macrotask turn (no fixed sleeps). */
export async function until(predicate: () => boolean, what: string, maxTurns = 100_000): Promise<void> {
  for (let i = 0; i < maxTurns; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`gave up waiting for ${what}`);
}
