import { StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import type { ResolvedTarget } from './upstream-target';
import { UpstreamFetch } from './upstream-fetch';
import { upstreamTransport } from './upstream-wire';

/** How much of a spawned upstream's stderr is kept (its end), to say why it failed. */
const STDERR_KEPT = 2000;

/**
 * The transport side of one upstream connection: the SDK transport to its target, what a spawned
 * upstream last wrote to stderr (kept to say why it failed or closed), and an HTTP upstream's
 * session and own keep-alive sockets (ended with the connection).
 */
export class UpstreamChannel {
  private stderr = '';
  private http: StreamableHTTPClientTransport | undefined;
  /** An HTTP upstream's client: its own keep-alive sockets, ended when the connection closes. */
  private readonly fetcher: UpstreamFetch | undefined;

  constructor(private readonly target: ResolvedTarget) {
    this.fetcher = target.kind === 'http' && !target.sse ? new UpstreamFetch() : undefined;
  }

  /** The transport to the target (the connection makes one, and connects its client over it). */
  transport(): Transport {
    const transport = upstreamTransport(
      this.target,
      (chunk) => {
        this.stderr = (this.stderr + chunk).slice(-STDERR_KEPT);
      },
      this.fetcher?.fetch
    );
    if (transport instanceof StreamableHTTPClientTransport) this.http = transport;
    return transport;
  }

  /** The end of what the upstream wrote to stderr, trimmed (empty when it wrote nothing). */
  get stderrTail(): string {
    return this.stderr.trim();
  }

  /** A Streamable HTTP upstream's own HTTP client (its keep-alive sockets), for the calls the gateway sends itself. */
  get httpClient(): UpstreamFetch | undefined {
    return this.fetcher;
  }

  /** The upstream's 2025-era session id, where it gave one (HTTP). */
  get sessionId(): string | undefined {
    return this.http?.sessionId;
  }

  /** Ends the upstream session (`DELETE`), where there is one; its failure is of no use to a connection closing. */
  async endSession(): Promise<void> {
    await this.http?.terminateSession().catch(() => undefined);
  }

  /** Ends an HTTP upstream's keep-alive sockets (again is harmless). */
  release(): void {
    this.fetcher?.close();
  }
}
