import type { Answer, CallOutcome, CallRequest, EraName, InspectorEvent, InspectorState, ServerSummary } from '../inspector-protocol.js';

/** A view document, as `api/view` answers. */
export interface ViewDocument {
  readonly uri: string;
  readonly html: string;
  readonly csp?: Record<string, unknown>;
}

/**
 * The page's way to its backend: JSON `fetch`es to `api/*` and one event stream
 * (`api/events`), all relative to the page's own address, whose path carries the per-run token.
 */
export class Backend {
  private readonly base = new URL('.', location.href);

  /** Opens the event stream; `onEvent` gets each event. */
  listen(onEvent: (event: InspectorEvent) => void, onTrouble: () => void): EventSource {
    const source = new EventSource(new URL('api/events', this.base));
    source.onmessage = (message) => onEvent(JSON.parse(message.data as string) as InspectorEvent);
    source.onerror = onTrouble;
    return source;
  }

  state(): Promise<InspectorState> {
    return this.get('api/state') as Promise<InspectorState>;
  }

  connect(era: EraName): Promise<ServerSummary> {
    return this.post('api/connect', { era }) as Promise<ServerSummary>;
  }

  refresh(): Promise<ServerSummary> {
    return this.post('api/refresh', {}) as Promise<ServerSummary>;
  }

  call(request: CallRequest): Promise<CallOutcome> {
    return this.post('api/call', request) as Promise<CallOutcome>;
  }

  cancel(callId: string): Promise<unknown> {
    return this.post('api/cancel', { callId });
  }

  answer(questionId: string, answer: Answer): Promise<unknown> {
    return this.post('api/answer', { questionId, answer });
  }

  view(uri: string): Promise<ViewDocument> {
    return this.post('api/view', { uri }) as Promise<ViewDocument>;
  }

  chain(kind: 'tool' | 'prompt' | 'resource', name: string): Promise<{ chain: string[] | null }> {
    return this.post('api/chain', { kind, name }) as Promise<{ chain: string[] | null }>;
  }

  private async get(path: string): Promise<unknown> {
    return this.read(await fetch(new URL(path, this.base), { cache: 'no-store' }));
  }

  private async post(path: string, body: unknown): Promise<unknown> {
    return this.read(
      await fetch(new URL(path, this.base), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    );
  }

  private async read(response: Response): Promise<unknown> {
    const body = (await response.json()) as unknown;
    if (!response.ok) {
      const message = typeof (body as { error?: unknown })?.error === 'string' ? (body as { error: string }).error : response.statusText;
      throw new Error(message);
    }
    return body;
  }
}
