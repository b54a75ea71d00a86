import { Client, StreamableHTTPClientTransport, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import { build } from 'esbuild';
import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import type { Answer, HostCallOutcome, HostLogEntry, Question, RenderRequest } from './host-page.mjs' with { 'resolution-mode': 'import' };

/** The MCP Apps extension a host declares in its client capabilities, and the media type of the views it renders. */
const UI_EXTENSION = 'io.modelcontextprotocol/ui';
const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * The Node half of the test host (the browser half is host-page.mts): a real SDK client, connected
 * over HTTP to the sample app in one protocol era, behind a page that renders the tools' views.
 * It does what an MCP Apps host does: calls the tool the "model" chose, reads the view the tool
 * names (`resources/read`), renders it with the tool's input and result, proxies the view's own
 * calls (their progress back under the view's token; a cancel from the view aborts the host's
 * request, which the SDK turns into the era's cancellation) and shows the server's questions.
 */

/** The protocol era the host's client speaks. */
export type Era = '2025' | '2026';

/** A theme a host passes to its views: `hostContext.theme` and a few standard style variables. */
export const HOST_THEMES = {
  light: {
    theme: 'light',
    styles: {
      variables: {
        '--color-background-primary': 'rgb(250, 248, 240)',
        '--color-text-primary': 'rgb(32, 33, 36)',
        '--color-background-info': 'rgb(15, 118, 110)',
        '--font-sans': 'DejaVu Sans, sans-serif'
      }
    }
  },
  dark: {
    theme: 'dark',
    styles: {
      variables: {
        '--color-background-primary': 'rgb(24, 26, 32)',
        '--color-text-primary': 'rgb(235, 236, 240)',
        '--color-background-info': 'rgb(129, 140, 248)',
        '--font-sans': 'DejaVu Sans, sans-serif'
      }
    }
  }
} as const;

const HOST_PAGE_SOURCE = join(__dirname, 'host-page.mts');

let hostScript: Promise<string> | undefined;

/** The browser half, bundled once per test file (the ext-apps host bridge and the SDK's Protocol inlined). */
function hostPageScript(): Promise<string> {
  hostScript ??= build({
    entryPoints: [HOST_PAGE_SOURCE],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'error'
  }).then((built) => built.outputFiles[0].text);
  return hostScript;
}

function hostPageHtml(script: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Test host</title><style>
body { margin: 0; padding: 16px; background: #e9eaee; font-family: DejaVu Sans, sans-serif; }
#view iframe { display: block; width: 720px; height: 120px; border: 1px solid #b8bcc6; border-radius: 8px; background: transparent; }
dialog { border: 1px solid #888; border-radius: 8px; }
</style></head><body>
<section id="view"></section>
<dialog id="question" aria-labelledby="question-text"><p id="question-text"></p>
<button id="approve" type="button">Approve</button> <button id="decline" type="button">Decline</button></dialog>
<script>${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`;
}

/** Options of {@link openHost}. */
export interface HostOptions {
  readonly browser: Browser;
  /** The sample app's MCP endpoint over HTTP on 127.0.0.1. */
  readonly url: URL;
  readonly era: Era;
  readonly theme?: keyof typeof HOST_THEMES;
}

/** A host with one page, and what it saw. */
export interface BrowserHost {
  readonly page: Page;
  readonly client: Client;
  readonly tools: readonly Tool[];
  /** Every tool call the host made to the server, by name (the model's and the views'). */
  readonly calls: string[];
  /** Every question the server asked, by its message. */
  readonly questions: string[];
  /** URLs the page requested (none: the views load nothing). */
  readonly requests: string[];
  /** Console errors and CSP reports of the page and its views. */
  readonly problems: string[];
  /**
   * What a host does when the model calls a tool with a view: calls it, reads the view,
   * renders it (handshake, then the tool input), and delivers the result. The view's frame.
   */
  showToolCall(name: string, args?: Record<string, unknown>): Promise<{ frame: FrameLocator; result: CallToolResult }>;
  /** Switches the host's theme (`ui/notifications/host-context-changed`), as a user toggling dark mode. */
  setTheme(theme: keyof typeof HOST_THEMES): Promise<void>;
  /** The messages between the host and the view so far. */
  log(): Promise<HostLogEntry[]>;
  /** The `ui/notifications/size-changed` the view sent. */
  sizes(): Promise<Array<{ width?: number; height?: number }>>;
  close(): Promise<void>;
}

/** Opens a page on the browser and connects the host's SDK client to the app in `era`. */
export async function openHost(options: HostOptions): Promise<BrowserHost> {
  const { browser, url, era } = options;
  let hostContext: Record<string, unknown> = {
    ...HOST_THEMES[options.theme ?? 'light'],
    locale: 'en-US',
    platform: 'web',
    displayMode: 'inline'
  };
  const client = new Client(
    { name: 'mcpfusion-test-host', version: '1.0.0' },
    {
      // A host that renders views says so; it answers the server's form questions (through its page).
      capabilities: { elicitation: { form: {} }, extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } },
      versionNegotiation: { mode: era === '2025' ? 'legacy' : { pin: '2026-07-28' } }
    }
  );
  const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
  const calls: string[] = [];
  const questions: string[] = [];
  const requests: string[] = [];
  const problems: string[] = [];
  const running = new Map<number, AbortController>();
  page.on('request', (request) => {
    if (!/^(data|about|blob):/.test(request.url())) requests.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  // On 2026-07-28 the client's input_required loop calls this same handler for each round.
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as Question;
    questions.push(params.message);
    const answer: Answer = await page.evaluate((question) => window.testHost.ask(question), params);
    return answer;
  });

  await page.exposeFunction('hostCallTool', async (callId: number, params: { name: string; arguments?: Record<string, unknown> }) => {
    const controller = new AbortController();
    running.set(callId, controller);
    calls.push(params.name);
    // Progress goes to the page in order, and all of it before the result.
    let forwarded = Promise.resolve();
    try {
      const result = (await client.callTool(params, {
        signal: controller.signal,
        resetTimeoutOnProgress: true,
        onprogress: (update) => {
          forwarded = forwarded.then(() => page.evaluate(([id, p]) => window.testHost.progress(id, p), [callId, update] as const));
        }
      })) as CallToolResult;
      await forwarded;
      return { result } satisfies HostCallOutcome;
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -32603;
      return { error: { code, message: error instanceof Error ? error.message : String(error) } } satisfies HostCallOutcome;
    } finally {
      running.delete(callId);
    }
  });
  await page.exposeFunction('hostCancelCall', async (callId: number, reason: string) => {
    running.get(callId)?.abort(new Error(reason));
  });
  await page.setContent(hostPageHtml(await hostPageScript()));

  await client.connect(new StreamableHTTPClientTransport(url));
  const { tools } = await client.listTools();

  return {
    page,
    client,
    tools,
    calls,
    questions,
    requests,
    problems,
    async showToolCall(name, args = {}) {
      const tool = tools.find((candidate) => candidate.name === name);
      const uri = (tool?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
      if (!uri) throw new Error(`${name} names no view`);
      calls.push(name);
      const [result, read] = await Promise.all([
        client.callTool({ name, arguments: args }) as Promise<CallToolResult>,
        client.readResource({ uri })
      ]);
      const content = read.contents[0] as { text?: string; mimeType?: string; _meta?: { ui?: { csp?: RenderRequest['csp'] } } };
      if (content.mimeType !== VIEW_MIME_TYPE || typeof content.text !== 'string') throw new Error(`${uri} is not an MCP App document`);
      const listed = tools.map((t) => ({ name: t.name, ...(t._meta ? { _meta: t._meta as Record<string, unknown> } : {}) }));
      const request: RenderRequest = {
        html: content.text,
        csp: content._meta?.ui?.csp,
        tools: listed,
        toolName: name,
        toolInput: args,
        hostContext
      };
      await page.evaluate((r) => window.testHost.render(r), request);
      await page.evaluate((r) => window.testHost.deliverResult(r), result);
      return { frame: page.frameLocator('#view iframe'), result };
    },
    async setTheme(theme) {
      hostContext = { ...hostContext, ...HOST_THEMES[theme] };
      await page.evaluate((context) => window.testHost.setHostContext(context), hostContext);
    },
    log: () => page.evaluate(() => [...window.testHost.log]),
    sizes: () => page.evaluate(() => [...window.testHost.sizes]),
    async close() {
      for (const controller of running.values()) controller.abort(new Error('the host closed'));
      await client.close();
      await page.close();
    }
  };
}
