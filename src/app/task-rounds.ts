import { UnknownToolError } from '../errors';
import { jsonRpcErrorObject, type ErrorBoundary } from '../pipeline/error-boundary';
import type { RunRound } from '../tasks/task-lifecycle';
import type { CallRequest, ServedRequest } from '../types/request';
import type { CallEngine } from './call-engine';
import type { Catalogs } from './member-router';
import type { ServedRequests } from './served-requests';

/**
 * How a task's later round runs (after `tasks/update` answered its last request): the tool's
 * chain of now, in task mode, whose outcome settles the task. The lifecycle is given this once
 * the catalogs exist; it is all it needs of them, so the tasks are built after the chains
 * without a late-bound dispatcher. The round is a call of the request that resumed it (its
 * caller, its telemetry, what its connection can deliver), with no channel of its own: its
 * progress and log messages have no stream to go to.
 */
export function taskRoundRunner(
  engine: CallEngine,
  boundary: ErrorBoundary,
  catalogs: () => Catalogs,
  servedRequests: ServedRequests
): RunRound {
  return (round, resumedBy): void => {
    const tool = catalogs().tools.get(round.toolName);
    if (!tool) {
      // The tool was removed at run time: the task fails, saying so.
      const name = round.toolName;
      void round.task.settle({ error: jsonRpcErrorObject(boundary.protocolError(new UnknownToolError(name), 'tool', name)) });
      return;
    }
    // A `tasks/update` served to the tasks extension: the request as the transport served it; else (`app.callTool`) the request itself.
    const served: ServedRequest = servedRequests.servedBehind(resumedBy) ?? { ...resumedBy, trace: undefined };
    const request: CallRequest = {
      ...served,
      subject: round.toolName,
      arguments: round.arguments,
      clientCapabilities: round.clientCapabilities,
      requestState: round.requestState,
      inputResponses: round.inputResponses,
      era: 'modern',
      signal: round.signal,
      sendProgress: undefined,
      sendLog: undefined,
      closeStream: undefined,
      mode: 'task',
      task: round.task
    };
    void engine.run(tool, request).catch(() => undefined);
  };
}
