import type { AuthInfo } from '@modelcontextprotocol/server';
import { serverSdk } from '../../wire/server-sdk';
import { isPlainJsonObject } from '../../wire/own-properties';
import type { TaskListenRequest } from '../served-app';

/**
 * Listens the app's extensions answer: a 2026-era `subscriptions/listen` whose params an
 * extension `accepts` (task listens, `params.notifications.taskIds`, are the tasks
 * extension's) is served by that extension, not by the SDK, whose listen router knows only the
 * core notifications. This module recognises a listen in a parsed body and answers it.
 */

const MAX_LISTENED_TASKS = 100;

/** A `subscriptions/listen` request as parsed from a body: its id, its params, its envelope's capabilities. */
export interface ParsedListen {
  readonly id: string | number;
  readonly params: Readonly<Record<string, unknown>>;
  readonly capabilities: unknown;
}

/** Who answers the listens extensions serve (the app's extensions: `ExtensionSet`). */
export interface ListenRouter {
  /** Whether an extension answers this listen. */
  accepts(listen: ParsedListen): boolean;
  /**
   * Its stream; a refusal is thrown as the JSON-RPC error the app's boundary makes of it.
   * `httpRequest`: the HTTP request it came in (the caller's facts: `principalOf` may read its headers).
   */
  open(listen: ParsedListen, authInfo: AuthInfo | undefined, signal: AbortSignal, httpRequest?: Request): Promise<Response>;
}

/** The listen a parsed body is, or undefined (anything else, a GET's absent body included). */
export function listenOf(body: unknown): ParsedListen | undefined {
  if (!isPlainJsonObject(body)) return undefined;
  const message = body as Record<string, unknown>;
  if (message.method !== 'subscriptions/listen' || (typeof message.id !== 'string' && typeof message.id !== 'number')) return undefined;
  const params = isPlainJsonObject(message.params) ? (message.params as Record<string, unknown>) : {};
  const meta = isPlainJsonObject(params._meta) ? (params._meta as Record<string, unknown>) : undefined;
  return { id: message.id, params, capabilities: meta?.[serverSdk().CLIENT_CAPABILITIES_META_KEY] };
}

/** The task ids a listen's params ask status of (at most 100, strings only), or undefined when it names none. */
export function taskIdsOf(params: Readonly<Record<string, unknown>>): string[] | undefined {
  const notifications = isPlainJsonObject(params.notifications) ? (params.notifications as Record<string, unknown>) : undefined;
  const taskIds = notifications?.taskIds;
  if (!Array.isArray(taskIds) || taskIds.length === 0) return undefined;
  // A listen follows a bounded number of tasks: each one is looked up and watched.
  return taskIds.filter((taskId): taskId is string => typeof taskId === 'string').slice(0, MAX_LISTENED_TASKS);
}

/** The task listen a parsed body is (a listen naming task ids), or undefined. */
export function taskListenOf(body: unknown): (TaskListenRequest & { readonly capabilities: unknown }) | undefined {
  const listen = listenOf(body);
  const taskIds = listen ? taskIdsOf(listen.params) : undefined;
  return listen && taskIds ? { id: listen.id, taskIds, capabilities: listen.capabilities } : undefined;
}

/** A listen an extension answers, on its stream; a refusal (no extension: -32021) is the listen request's JSON-RPC error. */
export async function answerListen(
  listen: ParsedListen,
  authInfo: AuthInfo | undefined,
  router: ListenRouter,
  signal: AbortSignal,
  httpRequest?: Request
): Promise<Response> {
  try {
    return await router.open(listen, authInfo, signal, httpRequest);
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return Response.json({ jsonrpc: '2.0', id: listen.id, error: { code, message, ...(data !== undefined ? { data } : {}) } });
  }
}
