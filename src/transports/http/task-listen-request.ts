import { CLIENT_CAPABILITIES_META_KEY, type AuthInfo } from '@modelcontextprotocol/server';
import { isPlainJsonObject } from '../../wire/own-properties';
import type { TaskEndpoints, TaskListenRequest } from '../served-app';

/**
 * Task listens (the tasks extension): a 2026-era `subscriptions/listen` that asks for task
 * status is served by the app's `TaskEndpoints`, not by the SDK, whose listen router knows no
 * task ids. This module recognises one in a parsed body and answers it.
 */

const MAX_LISTENED_TASKS = 100;

/** A `subscriptions/listen` request that asks for task status (`params.notifications.taskIds`), with its envelope's capabilities. */
export interface ParsedTaskListen extends TaskListenRequest {
  readonly capabilities: unknown;
}

/** The task listen a parsed body is, or undefined (anything else, a GET's absent body included). */
export function taskListenOf(body: unknown): ParsedTaskListen | undefined {
  if (!isPlainJsonObject(body)) return undefined;
  const message = body as Record<string, unknown>;
  if (message.method !== 'subscriptions/listen' || (typeof message.id !== 'string' && typeof message.id !== 'number')) return undefined;
  const params = isPlainJsonObject(message.params) ? (message.params as Record<string, unknown>) : undefined;
  const notifications = params && isPlainJsonObject(params.notifications) ? (params.notifications as Record<string, unknown>) : undefined;
  const taskIds = notifications?.taskIds;
  if (!Array.isArray(taskIds) || taskIds.length === 0) return undefined;
  const meta = params && isPlainJsonObject(params._meta) ? (params._meta as Record<string, unknown>) : undefined;
  return {
    id: message.id,
    // A listen follows a bounded number of tasks: each one is looked up and watched.
    taskIds: taskIds.filter((taskId): taskId is string => typeof taskId === 'string').slice(0, MAX_LISTENED_TASKS),
    capabilities: meta?.[CLIENT_CAPABILITIES_META_KEY]
  };
}

/** Task status on a listen stream; a refusal (no extension: -32021) is the listen request's JSON-RPC error. */
export async function listenForTasks(
  listen: ParsedTaskListen,
  authInfo: AuthInfo | undefined,
  tasks: TaskEndpoints,
  signal: AbortSignal
): Promise<Response> {
  const request = { era: 'modern' as const, authInfo, clientCapabilities: listen.capabilities as Record<string, unknown> };
  try {
    return await tasks.listen(listen, request, signal);
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return Response.json({ jsonrpc: '2.0', id: listen.id, error: { code, message, ...(data !== undefined ? { data } : {}) } });
  }
}
