import type { CallOutcome } from '../inspector-protocol.js';
import type { Backend, ViewDocument } from './backend.mjs';
import { isRecord } from './dom.mjs';

/**
 * The host side of MCP Apps (`io.modelcontextprotocol/ui`, 2026-01-26) for one view: the view's
 * document in a sandboxed iframe (`allow-scripts` only: an opaque origin, no access to the page
 * or its token) under the CSP the view declares, and the JSON-RPC of `postMessage` between them:
 * `ui/initialize`, then the tool's input and result; the view's own `tools/call` go through the
 * inspector's connection (their progress back under the view's token, a `notifications/cancelled`
 * from the view cancels them); `ui/notifications/size-changed` sizes the frame.
 */

/** The MCP Apps protocol version the host speaks when the view names none. */
const APPS_PROTOCOL = '2026-01-26';

const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; base-uri 'self'; object-src 'none'";

/** The policy of a view: the default, widened only by the origins it declares (each checked to be an origin). */
function cspOf(csp: Record<string, unknown> | undefined): string {
  if (!csp) return DEFAULT_CSP;
  const origins = (key: string): string =>
    (Array.isArray(csp[key]) ? (csp[key] as unknown[]) : [])
      .filter((origin): origin is string => typeof origin === 'string' && /^https?:\/\/[A-Za-z0-9.*:[\]-]+$/.test(origin))
      .join(' ');
  const list = (key: string, fallback: string): string => origins(key) || fallback;
  const resources = origins('resourceDomains');
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `connect-src ${list('connectDomains', "'none'")}`,
    `frame-src ${list('frameDomains', "'none'")}`,
    `base-uri ${list('baseUriDomains', "'self'")}`,
    "object-src 'none'"
  ].join('; ');
}

/** The document with the CSP as its first head element (a srcdoc iframe has no response headers). */
function withCsp(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, '&quot;')}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${meta}`) : `${meta}${html}`;
}

/** What the host is told about the page's tools and look. */
export interface ViewHostOptions {
  readonly backend: Backend;
  /** The server's tools as listed (a view may not call a tool whose `_meta.ui.visibility` is only `["model"]`). */
  readonly tools: ReadonlyArray<Record<string, unknown>>;
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
  /** Called with every message between the page and the view (for the log). */
  readonly traffic?: (direction: 'to-view' | 'from-view', method: string) => void;
}

type Message = {
  jsonrpc?: string;
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
};

let nextViewCall = 1;

/** One rendered view and its bridge; {@link dispose} removes both. */
export class ViewHost {
  private readonly iframe: HTMLIFrameElement;
  private readonly initialized: Promise<void>;
  private markInitialized!: () => void;
  /** The view's calls running through the inspector, by the view's request id. */
  private readonly calls = new Map<string | number, { callId: string; progressToken?: string | number }>();
  private readonly onMessage = (event: MessageEvent): void => {
    if (event.source !== this.iframe.contentWindow || !isRecord(event.data)) return;
    void this.handle(event.data as Message);
  };

  constructor(
    slot: HTMLElement,
    document: ViewDocument,
    private readonly options: ViewHostOptions
  ) {
    this.initialized = new Promise((resolve) => (this.markInitialized = resolve));
    this.iframe = window.document.createElement('iframe');
    this.iframe.title = `View ${document.uri} of ${options.toolName}`;
    this.iframe.setAttribute('sandbox', 'allow-scripts');
    this.iframe.srcdoc = withCsp(document.html, cspOf(document.csp));
    window.addEventListener('message', this.onMessage);
    slot.replaceChildren(this.iframe);
  }

  /** Sends the tool's result (or its cancellation) once the view has initialized. */
  async deliver(outcome: CallOutcome): Promise<void> {
    await this.initialized;
    if (outcome.ok) this.notify('ui/notifications/tool-result', outcome.result);
    else this.notify('ui/notifications/tool-cancelled', { reason: outcome.error.message });
  }

  /** Progress of one of the view's calls goes back to the view, under the view's own token. */
  progress(callId: string, update: { progress: number; total?: number; message?: string }): void {
    for (const call of this.calls.values())
      if (call.callId === callId && call.progressToken !== undefined)
        this.notify('notifications/progress', { progressToken: call.progressToken, ...update });
  }

  /** Whether `callId` is one of this view's calls. */
  owns(callId: string): boolean {
    return [...this.calls.values()].some((call) => call.callId === callId);
  }

  dispose(): void {
    window.removeEventListener('message', this.onMessage);
    for (const call of this.calls.values()) void this.options.backend.cancel(call.callId).catch(() => undefined);
    this.calls.clear();
    this.iframe.remove();
  }

  private post(message: Message): void {
    if (message.method) this.options.traffic?.('to-view', message.method);
    this.iframe.contentWindow?.postMessage({ jsonrpc: '2.0', ...message }, '*');
  }

  private notify(method: string, params: unknown): void {
    this.post({ method, params: params as Record<string, unknown> });
  }

  private async handle(message: Message): Promise<void> {
    const { id, method } = message;
    if (typeof method !== 'string') return; // answers to the host's own requests: none are made
    this.options.traffic?.('from-view', method);
    const params = isRecord(message.params) ? message.params : {};
    if (id === undefined) return this.notification(method, params);
    try {
      this.post({ id, result: await this.request(id, method, params) });
    } catch (error) {
      const { code, message: text } = error as { code?: unknown; message?: unknown };
      this.post({
        id,
        error: { code: typeof code === 'number' ? code : -32603, message: typeof text === 'string' ? text : String(error) }
      });
    }
  }

  private notification(method: string, params: Record<string, unknown>): void {
    if (method === 'ui/notifications/initialized') {
      this.notify('ui/notifications/tool-input', { arguments: this.options.toolInput });
      this.markInitialized();
    } else if (method === 'ui/notifications/size-changed') {
      if (typeof params.height === 'number' && params.height > 0)
        this.iframe.style.height = `${Math.min(Math.ceil(params.height), 4000)}px`;
    } else if (method === 'notifications/cancelled') {
      const call = this.calls.get(params.requestId as string | number);
      if (call) void this.options.backend.cancel(call.callId).catch(() => undefined);
    }
  }

  private async request(id: string | number, method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case 'ui/initialize':
        return {
          protocolVersion: typeof params.protocolVersion === 'string' ? params.protocolVersion : APPS_PROTOCOL,
          hostInfo: { name: 'mcpfusion-inspector', version: '1.0.0' },
          hostCapabilities: { serverTools: {}, logging: {} },
          hostContext: {
            theme: 'light',
            displayMode: 'inline',
            availableDisplayModes: ['inline'],
            platform: 'web',
            locale: navigator.language,
            styles: { variables: { '--color-background-primary': 'rgb(255, 255, 255)', '--color-text-primary': 'rgb(31, 35, 40)' } }
          }
        };
      case 'ping':
        return {};
      case 'tools/call':
        return this.callTool(id, params);
      case 'ui/request-display-mode':
        return { mode: 'inline' };
      case 'ui/message':
      case 'ui/update-model-context':
        return {};
      case 'ui/open-link': {
        const url = typeof params.url === 'string' ? params.url : '';
        if (!/^https?:\/\//.test(url)) return { isError: true };
        window.open(url, '_blank', 'noopener,noreferrer');
        return {};
      }
      default:
        throw Object.assign(new Error(`the inspector does not serve ${method} to views`), { code: -32601 });
    }
  }

  private async callTool(id: string | number, params: Record<string, unknown>): Promise<unknown> {
    const name = typeof params.name === 'string' ? params.name : '';
    const tool = this.options.tools.find((candidate) => candidate.name === name);
    if (!tool) throw Object.assign(new Error(`Unknown tool: ${name}`), { code: -32602 });
    // MCP Apps visibility: a tool only the model may call is refused to views.
    const ui = isRecord(tool._meta) && isRecord(tool._meta.ui) ? tool._meta.ui : {};
    const visibility = Array.isArray(ui.visibility) ? ui.visibility : undefined;
    if (visibility && !visibility.includes('app'))
      throw Object.assign(new Error(`${name} is not callable from a view (its visibility is ${JSON.stringify(visibility)})`), {
        code: -32600
      });
    const meta = isRecord(params._meta) ? params._meta : {};
    const token = meta.progressToken;
    const callId = `view-${nextViewCall++}`;
    this.calls.set(id, { callId, ...(typeof token === 'string' || typeof token === 'number' ? { progressToken: token } : {}) });
    try {
      const outcome = await this.options.backend.call({
        callId,
        kind: 'tool',
        name,
        arguments: isRecord(params.arguments) ? params.arguments : {}
      });
      if (!outcome.ok) throw Object.assign(new Error(outcome.error.message), { code: outcome.error.code ?? -32603 });
      return outcome.result;
    } finally {
      this.calls.delete(id);
    }
  }
}
