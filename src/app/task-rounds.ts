import { UnknownToolError } from '../errors';
import { jsonRpcErrorObject, type ErrorBoundary } from '../pipeline/error-boundary';
import type { RunRound } from '../tasks/task-lifecycle';
import type { CallRequest } from '../types/request';
import type { CallEngine } from './call-engine';
import type { Catalogs } from './member-router';

/**
 * How a task's later round runs (after `tasks/update` answered its last request): the tool's
 * chain of now, in task mode, whose outcome settles the task. The lifecycle is given this once
 * the catalogs exist; it is all it needs of them, so the tasks are built after the chains
 * without a late-bound dispatcher.
 */
export function taskRoundRunner(engine: CallEngine, boundary: ErrorBoundary, catalogs: () => Catalogs): RunRound {
  return (name: string, request: CallRequest): void => {
    const tool = catalogs().tools.get(name);
    if (tool) {
      void engine.run(tool, request).catch(() => undefined);
      return;
    }
    // The tool was removed at run time: the task fails, saying so.
    void request.task?.settle({ error: jsonRpcErrorObject(boundary.protocolError(new UnknownToolError(name), 'tool', name)) });
  };
}
