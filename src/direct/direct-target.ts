import type { CompiledTool } from '../pipeline/compiled-member';
import type { AppTasks } from '../tasks/app-tasks';
import type { CallRequest } from '../types/request';

/** What a direct call (`app.callTool`) reaches the app through: the composition root builds one. */
export interface DirectTarget {
  /** Runs a request through a tool's chain: the app's engine; `then` reads the answer as the call ends (see `CallEngine.run`). */
  run(tool: CompiledTool, request: CallRequest, then?: (answer: unknown) => unknown): Promise<unknown>;
  /** The app's tasks, when it has task-capable tools (`asTask`). */
  readonly tasks: AppTasks | undefined;
}
