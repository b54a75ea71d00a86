import { UnknownToolError } from '../errors';
import type { LaterRound } from '../extensions/call-life';
import { jsonRpcErrorObject, type ErrorBoundary } from '../pipeline/error-boundary';
import { runHandleOf } from '../pipeline/steps/call-life.step';
import type { CallRequest, ServedRequest } from '../types/request';
import type { CallEngine } from './call-engine';
import type { Catalogs } from './member-router';
import type { ServedRequests } from './served-requests';

/**
 * What `ExtensionHost.runLaterRound` does (one per app, made by the composition root): the tool's
 * chain of now runs the round detached (`mode: 'task'`, its run the one it continues), whose
 * outcome, as the error boundary maps it, settles the run. The round is a call of the request
 * that resumed it: the request as the transport served it behind the extension's request (its
 * caller, its telemetry, what its connection can deliver), found in the app's `ServedRequests`;
 * a request this app did not hand an extension (`app.callTool`'s) is read by its own facts. It
 * has no channel of its own: its progress and log messages have no stream to go to.
 */
export function laterRoundRunner(
  engine: CallEngine,
  boundary: ErrorBoundary,
  catalogs: () => Catalogs,
  servedRequests: ServedRequests
): (round: LaterRound) => void {
  return (round): void => {
    const run = runHandleOf(round.run);
    const tool = catalogs().tools.get(round.tool);
    if (!tool) {
      // The tool was removed at run time: the run fails, saying so.
      void run.settle({ error: jsonRpcErrorObject(boundary.protocolError(new UnknownToolError(round.tool), 'tool', round.tool)) });
      return;
    }
    const resumedBy = round.resumedBy;
    const served: ServedRequest = servedRequests.servedBehind(resumedBy) ?? { ...resumedBy, trace: undefined };
    const request: CallRequest = {
      ...served,
      subject: round.tool,
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
      task: run
    };
    void engine.run(tool, request).catch(() => undefined);
  };
}
