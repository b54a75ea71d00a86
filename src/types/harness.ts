/** The options of the test entry point (`app.callTool`) and what it hands `onInput`: types only. */
import type { AuthInfo } from '@modelcontextprotocol/server';

/** A request for input as the test harness shows it to `onInput`. */
export interface HarnessInputRequest {
  /** What is asked: a form, a URL visit, a sampling request or a roots listing. */
  readonly kind: 'form' | 'url' | 'sampling' | 'roots';
  /** The key the answer goes under. */
  readonly key: string;
  /** The text shown to the user (forms and URL requests). */
  readonly message?: string;
  /** Forms: the schema of the fields asked for. */
  readonly requestedSchema?: Record<string, unknown>;
  /** URL requests: the page to visit. */
  readonly url?: string;
  /** The embedded request's params as sent. */
  readonly params: Record<string, unknown>;
}

/** An answer: an elicitation result (`{ action, content? }`), a sampling result, or `{ roots }`. */
export type HarnessInputAnswer =
  | {
      /** What the user did: `accept` sends `content`; `decline` and `cancel` send nothing. */
      readonly action: 'accept' | 'decline' | 'cancel';
      /** With `accept`: the form's answers, by field name. */
      readonly content?: Record<string, unknown>;
    }
  | Record<string, unknown>;

/** Options of the test entry point `app.callTool`. */
export interface DirectCallOptions {
  /**
   * Answers to requests for input, by field name: a form is accepted with the fields it asks
   * for (declined when none of them is here); a URL request is accepted unless its key maps to
   * `false`; a sampling request is answered with `answers[key]` (a sampling result), a roots
   * request with `{ roots: answers[key] }`.
   */
  answers?: Record<string, unknown>;
  /** Answers requests for input one by one (takes precedence over `answers`). */
  onInput?: (request: HarnessInputRequest) => HarnessInputAnswer | Promise<HarnessInputAnswer>;
  /** Aborts the call, as a client's cancellation would. */
  signal?: AbortSignal;
  /** The request `_meta`, as a client would send it. */
  meta?: Record<string, unknown>;
  /**
   * Receives progress as a client with a progress token would (`total` 100 for a percentage,
   * the handler's own for a count, undefined when a count has none). Without it, no progress channel exists.
   */
  onProgress?: (progress: number, message: string | undefined, total: number | undefined) => void;
  /** The verified token the call carries, as the HTTP endpoint would pass it (`ctx.auth`, scope checks). */
  authInfo?: AuthInfo;
  /**
   * Call a task-capable tool as a client with the tasks extension would, and follow the task to
   * its end (its requests for input answered from `answers`/`onInput` through `tasks/update`).
   */
  asTask?: boolean;
  /** With `asTask`: every status of the task as `tasks/get` shows it. */
  onTask?: (task: Record<string, unknown> & { taskId: string; status: string }) => void;
}
