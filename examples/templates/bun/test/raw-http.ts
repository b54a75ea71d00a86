import { connect } from 'node:net';

/**
 * Sends `request` (raw HTTP/1.1 text, with `Connection: close`) to `url`'s host and port and
 * resolves with the status code. A raw socket, because `fetch` replaces the Host header with the
 * URL's own, and the Host check is what a test of DNS rebinding protection needs to reach.
 */
export function rawStatus(url: URL, request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(received);
      if (status) resolve(Number(status[1]));
      else reject(new Error(`not an HTTP response: ${received.slice(0, 200)}`));
    });
    socket.write(request);
  });
}

/** A POST of a JSON-RPC ping to `url`'s path with `host` as its Host header. */
export function pingWithHost(url: URL, host: string): string {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  return [
    `POST ${url.pathname} HTTP/1.1`,
    `Host: ${host}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    `Content-Length: ${new TextEncoder().encode(body).length}`,
    'Connection: close',
    '',
    body
  ].join('\r\n');
}
