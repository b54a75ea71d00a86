/**
 * Connections that never send a byte cannot hold the server's sockets (issue 21, finding 6): a
 * silent connection is closed after `idleConnectionTimeoutMs`; a connection that sent a request
 * is not, however long its answer takes.
 */
import { connect, type Socket } from 'node:net';
import { Action, FusionApp, ToolProvider } from '../../src';
import { modernRequest } from '../helpers/raw-http';

/** Resolves once the test's silent connection has been closed by the server (set per test). */
let silentConnectionClosed: Promise<unknown> = Promise.resolve();

@ToolProvider()
class Slow {
  @Action('slow.wait', { description: 'Answers once the silent connection is closed: longer than the idle bound.' })
  async wait() {
    await silentConnectionClosed;
    return 'finally';
  }
}

const closedWithin = (socket: Socket): Promise<number> => {
  const started = Date.now();
  return new Promise((resolve) => socket.once('close', () => resolve(Date.now() - started)));
};

describe('idle connections', () => {
  it('closes a connection that sends nothing within the bound, and keeps one whose request takes longer', async () => {
    const app = FusionApp.create({ tools: [Slow] });
    const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false, idleConnectionTimeoutMs: 300 })) as { url: URL };
    try {
      const silent = connect(Number(url.port), '127.0.0.1');
      const silentClosed = closedWithin(silent);
      // The request below is answered only after the silent connection is closed: its own
      // connection outlives the idle bound while the request runs, and must not be closed.
      silentConnectionClosed = silentClosed;

      const { body, headers } = modernRequest('tools/call', { name: 'slow.wait', arguments: {} });
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body
      });
      expect(await answer.text()).toContain('finally');

      // Closed by the bound (not at once): a timer never fires early.
      expect(await silentClosed).toBeGreaterThanOrEqual(250);
    } finally {
      await app.close();
    }
  });

  it('refuses a bound that is not a positive whole number', async () => {
    const app = FusionApp.create({ tools: [Slow] });
    await expect(app.listen({ transport: 'http', port: 0, handleSignals: false, idleConnectionTimeoutMs: 0 })).rejects.toThrow(
      /idleConnectionTimeoutMs must be a positive whole number \(got 0\)/
    );
    await app.close();
  });
});
