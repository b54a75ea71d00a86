import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { CliError } from '../cli-error';
import type { Target } from '../options';
import { listEvery } from '../paged-list';
import type { InspectorDevHooks } from './dev-hooks';
import type { EventHub } from './event-hub';
import {
  LOG_KEPT,
  LOG_TEXT_MAX,
  type CallOutcome,
  type CallRequest,
  type EraName,
  type InspectorState,
  type LogEntry,
  type ServerSummary
} from './inspector-protocol';
import { openLink, OWN_TOKEN_PREFIX, TASKS_EXTENSION, VIEW_MIME_TYPE, type McpLink } from './mcp-link';
import { QuestionDesk } from './question-desk';
import { runTaskCall } from './task-runner';

/** A call may wait on a person (a question) or a long tool: the SDK's 60 s default would end it. */
const CALL_TIMEOUT_MS = 24 * 3_600_000;

/** A view document as the page renders it. */
export interface ViewDocument {
  readonly uri: string;
  readonly html: string;
  /** `_meta.ui.csp` of the resource: the origins the view declares (untrusted; the page builds the CSP from it). */
  readonly csp?: Record<string, unknown>;
}

/**
 * The inspector's side of one MCP session: an SDK client in the era the page chose, the calls
 * it runs for the page (each abortable by its id), the server's questions waiting for the page,
 * and the session's JSON-RPC log. Everything the page sees while a call runs goes out through
 * the {@link EventHub}.
 */
export class InspectorSession {
  private link: McpLink | undefined;
  private summary: ServerSummary | undefined;
  /** Connects one after another: a second choice of era waits for the first to finish. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly calls = new Map<string, AbortController>();
  private readonly log: LogEntry[] = [];
  private seq = 0;
  private readonly desk: QuestionDesk;

  constructor(
    private readonly target: Target,
    private readonly headers: Record<string, string>,
    private readonly hub: EventHub,
    private readonly devHooks?: InspectorDevHooks
  ) {
    this.desk = new QuestionDesk(
      (question) => hub.publish({ type: 'question', question }),
      (questionId) => hub.publish({ type: 'question-closed', questionId })
    );
  }

  /** Where the session connects, in words. */
  get where(): string {
    return this.target.kind === 'http' ? this.target.url.href : [this.target.command, ...this.target.args].join(' ');
  }

  /** What a page that loads is given. */
  state(): InspectorState {
    return {
      target: this.where,
      ...(this.summary ? { summary: this.summary } : {}),
      log: [...this.log],
      questions: this.desk.open(),
      dev: this.devHooks !== undefined
    };
  }

  /** (Re)connects in `era`: the calls of the previous connection are cancelled, its questions too. */
  connect(era: EraName): Promise<ServerSummary> {
    const next = this.queue.then(async () => {
      await this.disconnect();
      const link = await openLink(this.target, this.headers, era, {
        message: (direction, message) => this.record(direction, message),
        ask: (params, signal) => this.desk.ask(params, signal),
        listChanged: (what) => this.hub.publish({ type: 'list-changed', what }),
        closed: () => {
          if (this.link !== link) return;
          this.link = undefined;
          this.summary = undefined;
          this.hub.publish({ type: 'disconnected', reason: `the connection to ${this.where} closed` });
        }
      });
      this.link = link;
      return (this.summary = await this.list(link));
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Lists again on the same connection (after `list_changed`, or a dev reload). */
  async refresh(): Promise<ServerSummary> {
    return (this.summary = await this.list(this.connected()));
  }

  /** Runs a tool call, a prompt or a resource read for the page; its progress goes out as events. */
  async call(request: CallRequest): Promise<CallOutcome> {
    const link = this.connected();
    if (this.calls.has(request.callId)) throw new CliError(`a call ${request.callId} is running already`);
    const controller = new AbortController();
    this.calls.set(request.callId, controller);
    const { signal } = controller;
    const started = performance.now();
    const ms = (): number => Math.round(performance.now() - started);
    const options = { signal, timeout: CALL_TIMEOUT_MS, resetTimeoutOnProgress: true };
    const args = request.arguments ?? {};
    try {
      let result: unknown;
      if (request.kind === 'prompt') {
        result = await link.client.getPrompt({ name: request.name, arguments: stringValues(args) }, options);
      } else if (request.kind === 'resource') {
        result = await link.client.readResource({ uri: request.name }, options);
      } else if (request.task && link.modern && this.summary?.tasks) {
        result = await runTaskCall(link, request.name, args, {
          callId: request.callId,
          signal,
          ask: (params, askSignal) => this.desk.ask(params, askSignal),
          task: (task) => this.hub.publish({ type: 'task', task })
        });
      } else {
        result = await link.client.callTool(
          { name: request.name, arguments: args },
          {
            ...options,
            onprogress: (update) => this.hub.publish({ type: 'progress', callId: request.callId, ...update })
          }
        );
      }
      return { ok: true, result: result as Record<string, unknown>, ms: ms() };
    } catch (error) {
      const { code, message } = error as { code?: unknown; message?: unknown };
      return {
        ok: false,
        cancelled: signal.aborted,
        error: { ...(typeof code === 'number' ? { code } : {}), message: typeof message === 'string' ? message : String(error) },
        ms: ms()
      };
    } finally {
      this.calls.delete(request.callId);
    }
  }

  /** Cancels a running call the protocol's way (the SDK client's abort, or `tasks/cancel`); false when none runs. */
  cancel(callId: string): boolean {
    const controller = this.calls.get(callId);
    controller?.abort(new Error('cancelled from the inspector'));
    return controller !== undefined;
  }

  /** Settles a question of the server with the page's answer. */
  answer(questionId: string, answer: Parameters<QuestionDesk['answer']>[1]): boolean {
    return this.desk.answer(questionId, answer);
  }

  /** Reads a `ui://` view (MCP Apps): its HTML and the CSP origins it declares. */
  async readView(uri: string): Promise<ViewDocument> {
    if (!uri.startsWith('ui://')) throw new CliError(`${uri} is not a ui:// view`);
    const read = await this.connected().client.readResource({ uri }, { timeout: CALL_TIMEOUT_MS });
    const content = read.contents.find((item) => item.uri === uri) ?? read.contents[0];
    const html = content && 'text' in content && typeof content.text === 'string' ? content.text : undefined;
    if (!content || content.mimeType !== VIEW_MIME_TYPE || html === undefined)
      throw new CliError(`${uri} is not an MCP Apps document (${VIEW_MIME_TYPE} text)`);
    const ui = (content._meta as { ui?: { csp?: unknown } } | undefined)?.ui;
    const csp = ui?.csp;
    return {
      uri,
      html,
      ...(typeof csp === 'object' && csp !== null && !Array.isArray(csp) ? { csp: csp as Record<string, unknown> } : {})
    };
  }

  /** The dev project's compiled chain of a member (undefined without dev hooks). */
  describeChain(kind: 'tool' | 'prompt' | 'resource', name: string): readonly string[] | undefined {
    try {
      return this.devHooks?.describeChain?.(kind, name);
    } catch {
      return undefined; // not a member of the project (the hook may throw for an unknown name)
    }
  }

  /** Cancels every call and question and closes the connection. */
  async close(): Promise<void> {
    await this.queue;
    await this.disconnect();
  }

  private async disconnect(): Promise<void> {
    for (const controller of this.calls.values()) controller.abort(new Error('the inspector reconnected'));
    this.desk.cancelAll();
    const link = this.link;
    this.link = undefined;
    this.summary = undefined;
    await link?.close();
  }

  private connected(): McpLink {
    if (!this.link) throw new CliError('not connected: choose a protocol on the page to connect');
    return this.link;
  }

  private async list(link: McpLink): Promise<ServerSummary> {
    const { client } = link;
    const capabilities = (client.getServerCapabilities() ?? {}) as Record<string, unknown>;
    const extensions = capabilities.extensions as Record<string, unknown> | undefined;
    const info = client.getServerVersion();
    const instructions = client.getInstructions();
    return {
      era: link.era,
      protocolVersion: link.protocolVersion,
      server: { name: info?.name, version: info?.version, ...(info?.title !== undefined ? { title: info.title } : {}) },
      ...(instructions !== undefined ? { instructions } : {}),
      capabilities,
      tasks: link.modern && typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions,
      tools: capabilities.tools ? await listEvery(link, { method: 'tools/list', key: 'tools' }) : [],
      prompts: capabilities.prompts ? await listEvery(link, { method: 'prompts/list', key: 'prompts' }) : [],
      resources: capabilities.resources ? await listEvery(link, { method: 'resources/list', key: 'resources' }) : [],
      resourceTemplates: capabilities.resources
        ? await listEvery(link, { method: 'resources/templates/list', key: 'resourceTemplates' })
        : []
    };
  }

  /** One message into the log (and to the pages); the progress of the raw task calls to their call. */
  private record(direction: 'sent' | 'received', message: JSONRPCMessage): void {
    const { method, id, params } = message as {
      method?: unknown;
      id?: unknown;
      params?: { progressToken?: unknown } & Record<string, unknown>;
    };
    let text = JSON.stringify(message);
    if (text.length > LOG_TEXT_MAX) text = `${text.slice(0, LOG_TEXT_MAX)}… (${text.length} characters)`;
    const entry: LogEntry = {
      seq: ++this.seq,
      time: new Date().toISOString(),
      direction,
      ...(typeof method === 'string' ? { method } : {}),
      ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}),
      text
    };
    this.log.push(entry);
    if (this.log.length > LOG_KEPT) this.log.splice(0, this.log.length - LOG_KEPT);
    this.hub.publish({ type: 'log', entry });
    const token = params?.progressToken;
    if (method === 'notifications/progress' && typeof token === 'string' && token.startsWith(OWN_TOKEN_PREFIX) && params) {
      const { progress, total, message: note } = params as { progress?: unknown; total?: unknown; message?: unknown };
      if (typeof progress === 'number')
        this.hub.publish({
          type: 'progress',
          callId: token.slice(OWN_TOKEN_PREFIX.length),
          progress,
          ...(typeof total === 'number' ? { total } : {}),
          ...(typeof note === 'string' ? { message: note } : {})
        });
    }
  }
}

/** Prompt arguments are strings on the wire: other values the page sent are written as JSON. */
function stringValues(args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
}
