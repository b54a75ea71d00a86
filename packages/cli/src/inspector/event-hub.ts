import type { ServerResponse } from 'node:http';
import type { InspectorEvent } from './inspector-protocol';

/** A comment line sent this often keeps idle proxies and the browser from closing the stream. */
const KEEPALIVE_MS = 15_000;

/**
 * The Server-Sent Events streams of the pages open on the inspector: every event goes to each.
 * A page that goes away (its response closes) is dropped; {@link close} ends every stream and
 * the keep-alive timer, so nothing is left open when the inspector stops.
 */
export class EventHub {
  private readonly streams = new Set<ServerResponse>();
  private keepAlive: NodeJS.Timeout | undefined;

  /** Turns `response` into an event stream of this hub. */
  attach(response: ServerResponse): void {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive'
    });
    response.write(': inspector events\n\n');
    this.streams.add(response);
    response.once('close', () => {
      this.streams.delete(response);
      this.schedule();
    });
    this.schedule();
  }

  /** Sends `event` to every open page. */
  publish(event: InspectorEvent): void {
    const frame = `data: ${JSON.stringify(event)}\n\n`;
    for (const stream of this.streams) stream.write(frame);
  }

  /** Ends every stream. */
  close(): void {
    for (const stream of this.streams) stream.end();
    this.streams.clear();
    this.schedule();
  }

  /** The keep-alive runs only while a page listens (an idle inspector holds no timer). */
  private schedule(): void {
    if (this.streams.size > 0 && !this.keepAlive) {
      this.keepAlive = setInterval(() => {
        for (const stream of this.streams) stream.write(': keep-alive\n\n');
      }, KEEPALIVE_MS);
      this.keepAlive.unref();
    } else if (this.streams.size === 0 && this.keepAlive) {
      clearInterval(this.keepAlive);
      this.keepAlive = undefined;
    }
  }
}
