/**
 * What the inspector's page and its Node backend say to each other over 127.0.0.1 (JSON bodies
 * of `fetch`, and the events of one Server-Sent Events stream). The page's modules
 * (page/*.mts, compiled to browser ES modules) import only its types; the backend its constants too.
 */

/** The protocol eras the page offers in its "Protocol" control. */
export type EraName = '2025-11-25' | '2026-07-28';

/** A listed tool, prompt, resource or template, as the server sent it (untrusted data). */
export type Listed = Record<string, unknown>;

/** What `POST api/connect` answers: the server as the chosen era sees it. */
export interface ServerSummary {
  readonly era: EraName;
  /** The negotiated version (`2025-11-25`, `2026-07-28`). */
  readonly protocolVersion: string;
  readonly server: { readonly name?: string; readonly version?: string; readonly title?: string };
  readonly instructions?: string;
  readonly capabilities: Record<string, unknown>;
  /** Whether the server offers the tasks extension (2026-07-28): the page then offers "Run as a task". */
  readonly tasks: boolean;
  readonly tools: readonly Listed[];
  readonly prompts: readonly Listed[];
  readonly resources: readonly Listed[];
  readonly resourceTemplates: readonly Listed[];
}

/** What `GET api/state` answers when the page loads. */
export interface InspectorState {
  /** Where the inspector connects (a URL, or the stdio command line). */
  readonly target: string;
  readonly summary?: ServerSummary;
  /** The session's JSON-RPC log so far (the newest {@link LOG_KEPT} entries). */
  readonly log: readonly LogEntry[];
  /** Questions asked and not answered yet. */
  readonly questions: readonly Question[];
  /** Whether a `mcpfusion dev` project is behind the inspector (the dev panel is shown only then). */
  readonly dev: boolean;
}

/** The newest log entries the backend keeps (and sends to a page that loads). */
export const LOG_KEPT = 1000;

/** What the page asks to run: a tool call, a prompt, or a resource read. */
export interface CallRequest {
  /** Chosen by the page, unique per page: progress, tasks and Cancel name the call by it. */
  readonly callId: string;
  readonly kind: 'tool' | 'prompt' | 'resource';
  /** The tool or prompt name, or the resource URI. */
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  /** Ask for a task (the tasks extension, 2026-07-28). */
  readonly task?: boolean;
}

/** How a call ended: the raw result, or what went wrong. */
export type CallOutcome =
  | { readonly ok: true; readonly result: Record<string, unknown>; readonly ms: number }
  | {
      readonly ok: false;
      readonly cancelled: boolean;
      readonly error: { readonly code?: number; readonly message: string };
      readonly ms: number;
    };

/** A question of the server: an elicitation (2025 era) or a request of an input round or task (2026-07-28). */
export interface Question {
  readonly questionId: string;
  readonly message: string;
  readonly mode: 'form' | 'url';
  readonly requestedSchema?: Record<string, unknown>;
  /** Form mode: the page shows a field per property. URL mode: the page to visit. */
  readonly url?: string;
}

/** The user's answer to a {@link Question}. */
export type Answer =
  | { readonly action: 'accept'; readonly content?: Record<string, unknown> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** One JSON-RPC message of the session, as it crossed the transport. */
export interface LogEntry {
  readonly seq: number;
  /** ISO time. */
  readonly time: string;
  readonly direction: 'sent' | 'received';
  readonly method?: string;
  readonly id?: string | number;
  /** The message as JSON (cut at {@link LOG_TEXT_MAX} characters). */
  readonly text: string;
}

/** The longest message text a log entry carries. */
export const LOG_TEXT_MAX = 16_000;

/** A task's state as `tasks/get` last answered it. */
export interface TaskState {
  readonly callId: string;
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly tool: string;
}

/** A reload of a `mcpfusion dev` project. */
export interface DevReload {
  readonly ok: boolean;
  /** The compiler's errors (file:line: message) when the edit did not compile. */
  readonly errors?: readonly string[];
}

/** How long each stage of a call's compiled chain took (`mcpfusion dev`). */
export interface DevCallTimings {
  readonly kind: 'tool' | 'prompt' | 'resource';
  readonly name: string;
  readonly stages: ReadonlyArray<{ readonly stage: string; readonly ms: number }>;
}

/** The events of `GET api/events` (each an SSE `data:` line of JSON). */
export type InspectorEvent =
  | { readonly type: 'progress'; readonly callId: string; readonly progress: number; readonly total?: number; readonly message?: string }
  | { readonly type: 'question'; readonly question: Question }
  | { readonly type: 'question-closed'; readonly questionId: string }
  | { readonly type: 'log'; readonly entry: LogEntry }
  | { readonly type: 'task'; readonly task: TaskState }
  | { readonly type: 'list-changed'; readonly what: 'tools' | 'prompts' | 'resources' }
  | { readonly type: 'dev-reload'; readonly reload: DevReload }
  | { readonly type: 'dev-timings'; readonly timings: DevCallTimings }
  | { readonly type: 'disconnected'; readonly reason: string };
