/**
 * The browser half of the test host: a page built on the ext-apps host bridge (`AppBridge`)
 * that renders a view in a sandboxed iframe (`allow-scripts` only: an opaque origin) under the
 * CSP the view declares (the MCP Apps default when it declares none), and proxies the view's
 * `tools/call` to the real SDK client, which lives in the Node half (browser-host.ts) and is
 * reached through functions Playwright exposes on `window`. It also plays the user: the
 * server's questions appear in a dialog with Approve and Decline.
 *
 * Bundled by esbuild when the browser tests start; test code, never served by the sample app.
 */
import {
  AppBridge,
  isToolVisibilityModelOnly,
  PostMessageTransport,
  type McpUiHostContext,
  type McpUiResourceCsp
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/client';

/** What the Node half exposes (page.exposeFunction). */
declare global {
  interface Window {
    /** Calls the tool with the host's SDK client: `{ result }`, or `{ error }` for a JSON-RPC error. */
    hostCallTool(callId: number, params: { name: string; arguments?: Record<string, unknown> }): Promise<HostCallOutcome>;
    /** Aborts the host's request of that call (the SDK client then cancels it the protocol's way). */
    hostCancelCall(callId: number, reason: string): Promise<void>;
    /** The page's own API, driven by the Node half with page.evaluate. */
    testHost: TestHost;
  }
}

/** What the Node half answers a proxied call with. */
export type HostCallOutcome = { readonly result: CallToolResult } | { readonly error: { readonly code: number; readonly message: string } };

/** One message between the host and the view, as the host saw it. */
export interface HostLogEntry {
  readonly direction: 'from-view' | 'to-view';
  readonly method?: string;
  readonly id?: string | number;
}

/** What the Node half asks the page to render (plain JSON). */
export interface RenderRequest {
  readonly html: string;
  readonly csp?: McpUiResourceCsp;
  /** The server's tools as listed (their `_meta.ui.visibility` decides what a view may call). */
  readonly tools: ReadonlyArray<{ readonly name: string; readonly _meta?: Record<string, unknown> }>;
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
  /** The `hostContext` of `ui/initialize`: theme, style variables, locale, … */
  readonly hostContext: Record<string, unknown>;
}

/** A question of the server (`elicitation/create` params, form mode), shown to the "user". */
export interface Question {
  readonly message: string;
  readonly requestedSchema?: { properties?: Record<string, { type?: string }> };
}

/** The user's answer to a question. */
export type Answer = { action: 'accept'; content: Record<string, boolean> } | { action: 'decline' };

interface TestHost {
  readonly log: HostLogEntry[];
  readonly sizes: Array<{ width?: number; height?: number }>;
  render(request: RenderRequest): Promise<void>;
  deliverResult(result: CallToolResult): Promise<void>;
  setHostContext(context: Record<string, unknown>): void;
  progress(callId: number, update: { progress: number; total?: number; message?: string }): Promise<void>;
  ask(question: Question): Promise<Answer>;
}

const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; base-uri 'self'; object-src 'none'";

/** The view's CSP: the default, widened only by the origins the view declares. */
function cspOf(csp: McpUiResourceCsp | undefined): string {
  if (!csp) return DEFAULT_CSP;
  const list = (domains: string[] | undefined, fallback: string) => (domains?.length ? domains.join(' ') : fallback);
  const resources = list(csp.resourceDomains, '');
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
    "object-src 'none'"
  ].join('; ');
}

/** The document with the CSP as its first head element (a srcdoc iframe has no response headers). */
function withCsp(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, '&quot;')}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${meta}`) : html;
}

const log: HostLogEntry[] = [];
const sizes: Array<{ width?: number; height?: number }> = [];
const progressTokens = new Map<number, (update: { progress: number; total?: number; message?: string }) => Promise<void>>();
let bridge: AppBridge | undefined;
let nextCallId = 0;

function methodOf(message: unknown): HostLogEntry {
  const m = message as { method?: unknown; id?: unknown };
  return {
    direction: 'from-view',
    ...(typeof m.method === 'string' ? { method: m.method } : {}),
    ...(typeof m.id === 'string' || typeof m.id === 'number' ? { id: m.id } : {})
  };
}

async function render(request: RenderRequest): Promise<void> {
  const slot = document.getElementById('view')!;
  const iframe = document.createElement('iframe');
  iframe.title = request.toolName;
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.srcdoc = withCsp(request.html, cspOf(request.csp));
  slot.replaceChildren(iframe);
  const view = iframe.contentWindow!;
  window.addEventListener('message', (event) => {
    if (event.source === view) log.push(methodOf(event.data));
  });

  bridge = new AppBridge(
    null,
    { name: 'mcpfusion-test-host', version: '1.0.0' },
    { serverTools: {}, logging: {} },
    { hostContext: request.hostContext as McpUiHostContext }
  );
  // What a host must do (MCP Apps, Visibility): refuse a view's call to a tool the model alone may call.
  bridge.oncalltool = async (params, extra) => {
    const tool = request.tools.find((candidate) => candidate.name === params.name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    if (isToolVisibilityModelOnly(tool as Partial<Tool>)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `${params.name} is not callable from a view (its visibility is ["model"])`);
    }
    const callId = ++nextCallId;
    const token = extra.mcpReq._meta?.progressToken;
    if (token !== undefined) {
      // Progress of the host's request goes back to the view under the view's own token.
      progressTokens.set(callId, (update) =>
        extra.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...update } })
      );
    }
    const cancel = () => void window.hostCancelCall(callId, String(extra.mcpReq.signal.reason ?? 'cancelled by the view'));
    extra.mcpReq.signal.addEventListener('abort', cancel, { once: true });
    try {
      const outcome = await window.hostCallTool(callId, { name: params.name, arguments: params.arguments });
      if ('error' in outcome) throw new ProtocolError(outcome.error.code, outcome.error.message);
      return outcome.result;
    } finally {
      extra.mcpReq.signal.removeEventListener('abort', cancel);
      progressTokens.delete(callId);
    }
  };
  bridge.onsizechange = (size) => {
    sizes.push(size);
    if (size.height !== undefined) iframe.style.height = `${size.height}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge!.oninitialized = () => resolve();
  });
  const transport = new PostMessageTransport(view, view);
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    log.push({ ...methodOf(message), direction: 'to-view' });
    return send(message, options);
  };
  await bridge.connect(transport);
  await initialized;
  await bridge.sendToolInput({ arguments: request.toolInput });
}

async function deliverResult(result: CallToolResult): Promise<void> {
  if (!bridge) throw new Error('no view is rendered');
  await bridge.sendToolResult(result);
}

/** A new host context (a theme switch): the bridge sends what changed as `ui/notifications/host-context-changed`. */
function setHostContext(context: Record<string, unknown>): void {
  if (!bridge) throw new Error('no view is rendered');
  bridge.setHostContext(context as McpUiHostContext);
}

async function progress(callId: number, update: { progress: number; total?: number; message?: string }): Promise<void> {
  await progressTokens.get(callId)?.(update);
}

/** Shows the server's question; the test (the user) answers with the Approve or Decline button. */
function ask(question: Question): Promise<Answer> {
  const dialog = document.getElementById('question') as HTMLDialogElement;
  document.getElementById('question-text')!.textContent = question.message;
  dialog.show();
  return new Promise((resolve) => {
    const approve = document.getElementById('approve')!;
    const decline = document.getElementById('decline')!;
    const done = (answer: Answer) => {
      approve.onclick = null;
      decline.onclick = null;
      dialog.close();
      resolve(answer);
    };
    // The sample's questions are yes/no: every boolean field answered yes.
    const yes = Object.fromEntries(
      Object.entries(question.requestedSchema?.properties ?? {})
        .filter(([, schema]) => schema.type === 'boolean')
        .map(([key]) => [key, true])
    );
    approve.onclick = () => done({ action: 'accept', content: yes });
    decline.onclick = () => done({ action: 'decline' });
  });
}

window.testHost = { log, sizes, render, deliverResult, setHostContext, progress, ask };
