import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { until } from './wire-log';

/** The stdio fixture server as a child process, spoken to in raw JSON-RPC lines. */
export interface StdioChild {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything the child wrote to stdout / stderr so far. */
  out(): string;
  err(): string;
  send(message: object): void;
  /** Ends the child's stdin and resolves with its exit code. */
  end(): Promise<number | null>;
}

/** Starts the stdio fixture server, completes the 2025-era handshake, and starts a `hang` call as request 2. */
export async function startHangingStdioCall(): Promise<StdioChild> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'test/fixtures/stdio-server.ts'], {
    stdio: ['pipe', 'pipe', 'pipe']
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const send = (message: object): void => void child.stdin.write(JSON.stringify(message) + '\n');
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hang', arguments: {} } });
  await until(() => err.includes('hang: entered'), 'the call to start', 10_000_000);
  return {
    child,
    out: () => out,
    err: () => err,
    send,
    end: () => {
      child.stdin.end();
      return new Promise((resolve) => child.on('exit', resolve));
    }
  };
}
