import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { UPSTREAM_LIMITS } from './limits';
import { ListingBudget } from './listing-guard';
import { NoiseGuard } from './noise-guard';

/** What a {@link ConnectionGuard} needs of the connection it guards (given, so that the guards import nothing of the connection). */
export interface GuardedConnection {
  /** The upstream as diagnostics name it. */
  readonly name: string;
  /** The gateway's diagnostics (never stdout). */
  readonly log: (message: string) => void;
  /** Whether the connection closed already: a closed one is not broken off. */
  readonly closed: () => boolean;
  /** Closes the connection; its calls then fail naming {@link ConnectionGuard.brokenBy}. */
  readonly disconnect: () => void;
}

/**
 * The bounds of guards/limits.ts kept on one upstream connection: a tool listing past its bounds,
 * or a stream of requests no call made, breaks the connection off, naming the bound; what belongs
 * to nobody (garbage, answers to ids never sent) is logged a few times, then counted. One per
 * connection, so its counts end with it.
 */
export class ConnectionGuard {
  /** What the upstream sends that belongs to nobody: logged a few times, then counted. */
  private readonly noise: NoiseGuard;
  /** The tool listing being read, counted page by page. */
  private readonly listing = new ListingBudget();
  private broken: Error | undefined;

  constructor(private readonly connection: GuardedConnection) {
    this.noise = new NoiseGuard(connection.log);
  }

  /** Why the gateway broke the connection off (a bound the upstream broke), when it did. */
  get brokenBy(): Error | undefined {
    return this.broken;
  }

  /** Whether `message` is a tool-listing page past the listing's bounds: then the connection is broken off, and the page dropped. */
  overListed(message: JSONRPCMessage): boolean {
    const result = (message as { result?: { tools?: unknown; nextCursor?: unknown } }).result;
    if (!result || !Array.isArray(result.tools)) return false;
    const over = this.listing.add(result.tools, result.nextCursor === undefined);
    if (over) this.breakOff(`${over}, more than the gateway keeps of one upstream`);
    return over !== undefined;
  }

  /** An upstream request (`method`) that no call made, refused because of `why`: logged, and counted against the burst. */
  unrequested(method: string, why: string): void {
    this.noise.note('unrequested', `${this.connection.name} sent ${method} while ${why}: it was refused.`);
    // A stream of requests no call made is hostile: past the burst, the upstream is disconnected (and retried with backoff).
    if (!this.noise.unrequested())
      this.breakOff(
        `it sent more than ${UPSTREAM_LIMITS.unrequestedBurst} requests no call made (sampling, elicitation or roots outside a call)`
      );
  }

  /** The SDK's report of something it could not use (a line that is no JSON-RPC, a response to an id never sent, a message over the bound). */
  noticed(error: Error): void {
    if (/ReadBuffer exceeded/.test(error.message)) {
      this.broken ??= new Error(`it sent a message over ${UPSTREAM_LIMITS.maxMessageBytes} bytes`);
      return;
    }
    const first = error.message.replace(/\s+/g, ' ').slice(0, 200);
    // A message that is no valid JSON-RPC (the SDK's schema check says so), or an answer to an id never sent, is the upstream's noise.
    const unreadable = error.name === 'SyntaxError' || error.name === 'ZodError' || error.message.trimStart().startsWith('[');
    const kind = /unknown message ID|unknown.*token/i.test(first) ? 'unknown-id' : unreadable ? 'unreadable' : 'transport';
    this.noise.note(
      kind,
      kind === 'transport'
        ? `the connection to ${this.connection.name} reported: ${first}`
        : `${this.connection.name} sent something the gateway ignored: ${first}`
    );
  }

  /** Ends the connection because the upstream broke a bound; its calls fail naming `why`. */
  private breakOff(why: string): void {
    if (this.connection.closed() || this.broken) return;
    this.broken = new Error(why);
    this.connection.log(`${this.connection.name} is disconnected: ${why}.`);
    this.connection.disconnect();
  }
}
