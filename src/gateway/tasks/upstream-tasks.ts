import { TaskNotFoundError, ToolError } from '../../errors';
import type { ForwardedTaskMethod, TaskForwarding } from '../../types/forwarded-tasks';
import type { UpstreamConnection } from '../upstream-connection';
import { UpstreamRpcError } from '../../wire/raw-exchange';
import { ForwardedTaskTable } from './task-table';
import { withoutServerInfo } from './task-call';

/** What a gateway's upstream tasks need of their gateway. */
export interface UpstreamTasksHost {
  /** How messages name the gateway. */
  label(): string;
  /** Whether its upstream offers the tasks extension (as last listed). */
  offersTasks(): boolean;
  /** Whether `toolName` is one of its proxied tools (a front name). */
  serves(toolName: string): boolean;
  /** The connection a task request goes through (its tasks are the upstream's, whichever front session asks). */
  connection(): Promise<UpstreamConnection>;
}

/**
 * A gateway's upstream tasks, as the app's tasks extension serves them (see `TaskForwarding`):
 * a call that came back as an upstream task is adopted under a front id bound to its caller
 * (`ForwardedTaskTable`), and `tasks/get`, `tasks/update` and `tasks/cancel` for that id, from that
 * caller, are forwarded upstream with the upstream's id, their answers given the front id. The
 * upstream's own answer decides everything else (status, result, input requests, its -32602 for
 * a task it no longer has). The task runs upstream: the front request that created it may end.
 */
export class UpstreamTasks implements TaskForwarding {
  private readonly table: ForwardedTaskTable;

  constructor(
    private readonly host: UpstreamTasksHost,
    maxTasks?: number
  ) {
    this.table = new ForwardedTaskTable(maxTasks);
  }

  /** Tasks the front knows now. */
  get size(): number {
    return this.table.size;
  }

  offered(): boolean {
    return this.host.offersTasks();
  }

  serves(toolName: string): boolean {
    return this.host.serves(toolName);
  }

  adopt(_toolName: string, created: Readonly<Record<string, unknown>>, owner: string): Record<string, unknown> {
    const taskId = this.table.add(String(created.taskId), owner, created.ttlMs);
    return { ...created, taskId };
  }

  forward(
    method: ForwardedTaskMethod,
    taskId: string,
    owner: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal
  ): Promise<Record<string, unknown>> | undefined {
    const task = this.table.find(taskId, owner);
    if (!task) return undefined;
    // Only what the method defines goes upstream (the front's own `_meta` and other keys stay here).
    const sent: Record<string, unknown> = { taskId: task.upstreamId };
    if (method === 'tasks/update') sent.inputResponses = params.inputResponses;
    return this.send(method, sent, taskId, signal);
  }

  follow(
    taskIds: readonly string[],
    owner: string,
    signal: AbortSignal,
    status: (task: Record<string, unknown>) => void
  ): { readonly followed: readonly string[]; readonly ended: Promise<void> } {
    const frontOf = new Map<string, string>();
    for (const taskId of new Set(taskIds)) {
      const task = this.table.find(taskId, owner);
      if (task) frontOf.set(task.upstreamId, taskId);
    }
    if (frontOf.size === 0) return { followed: [], ended: Promise.resolve() };
    const ended = this.host
      .connection()
      .then((connection) =>
        connection.listenToTasks([...frontOf.keys()], signal, (task) => {
          const frontId = frontOf.get(String(task.taskId));
          // Only the tasks asked for, under their front ids; the upstream's subscription id stays upstream.
          if (frontId === undefined) return;
          const { _meta: _upstream, ...view } = task;
          status({ ...view, taskId: frontId });
        })
      )
      .catch(() => undefined);
    return { followed: [...frontOf.values()], ended };
  }

  private async send(
    method: ForwardedTaskMethod,
    params: Record<string, unknown>,
    frontId: string,
    signal: AbortSignal
  ): Promise<Record<string, unknown>> {
    const connection = await this.host.connection();
    let answer: Record<string, unknown>;
    try {
      answer = await connection.taskRequest(method, params, signal);
    } catch (error) {
      if (!(error instanceof UpstreamRpcError)) throw error;
      // The upstream no longer has it (expired, or the upstream restarted): unknown at the front too.
      if (error.code === -32602) throw new TaskNotFoundError();
      throw new ToolError(`${this.host.label()} refused ${method} (${error.code}): ${error.message}`);
    }
    // The framework stamps the front's own `resultType`; the upstream's id never reaches the front client.
    const { resultType: _stamped, ...rest } = withoutServerInfo(answer);
    return 'taskId' in rest ? { ...rest, taskId: frontId } : rest;
  }
}
