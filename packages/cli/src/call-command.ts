import type { Tool } from '@modelcontextprotocol/client';
import { CallDisplay } from './call-display';
import { CliError, ExitCode, type ExitCodeValue } from './cli-error';
import { connect, type Connection } from './connection';
import { Interrupt } from './interrupt';
import type { CallCommand } from './options';
import { readPresetAnswers } from './questions/form-answers';
import { questionHandler, type QuestionParams } from './questions/question-handler';
import { printResult, type ToolResult } from './result-output';
import { runTaskCall } from './task-call';
import { paint, note, type Terminal } from './terminal';
import { buildToolArguments, type InputSchema } from './tool-arguments';

/** A call may wait on a person (a question) or a long tool: the SDK's 60 s default would end it. */
const CALL_TIMEOUT_MS = 24 * 3_600_000;

/** What a cancelled call tells the user the server was told. */
function cancellationNote(connection: Connection, stdio: boolean): string {
  if (!connection.modern) return 'the server was sent notifications/cancelled';
  return stdio ? 'the server was sent notifications/cancelled' : 'the request was aborted: its response stream was closed';
}

/** The tool's listing, or a usage error naming the tools there are. */
async function findTool(connection: Connection, name: string): Promise<Tool> {
  const { tools } = await connection.client.listTools();
  const tool = tools.find((t) => t.name === name);
  if (!tool)
    throw new CliError(
      `no tool named ${name} on this server; it has ${tools.map((t) => t.name).join(', ') || 'no tools'} (mcpfusion list)`
    );
  return tool;
}

/** The message of a failed call: JSON-RPC errors with their code. */
function describeFailure(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: string };
  return typeof code === 'number' ? `protocol error ${code}: ${message ?? ''}` : `protocol error: ${message ?? String(error)}`;
}

/**
 * `mcpfusion call`: reads the arguments against the tool's schema, calls it with a progress
 * display, answers its questions, prints the result, and ends with 0, 1 (`isError`), 2
 * (protocol error) or 130 (Ctrl-C: the call is cancelled the protocol's way first).
 */
export async function runCall(command: CallCommand, terminal: Terminal, exitNow: (code: number) => never): Promise<ExitCodeValue> {
  const presets = readPresetAnswers(command.answers);
  const display = new CallDisplay(terminal, `calling ${command.tool}…`);
  const interrupt = new Interrupt(terminal, () => {
    display.pause();
    note(terminal, paint(terminal, 'red', 'Interrupted again: exiting at once.'));
    exitNow(ExitCode.CANCELLED);
  });
  const ask = questionHandler(terminal, presets, {
    before: async () => {
      display.pause();
      await interrupt.settle();
      interrupt.suspend();
    },
    after: () => {
      interrupt.resume();
      display.start();
    },
    interrupted: () => interrupt.press()
  });
  const connection = await connect(command, {
    tasks: command.task,
    prepare: (client) => client.setRequestHandler('elicitation/create', (request) => ask(request.params as QuestionParams) as never)
  });
  try {
    const tool = await findTool(connection, command.tool);
    const args = buildToolArguments(command.tool, tool.inputSchema as InputSchema, command.argPairs, command.argsJson);
    interrupt.arm();
    display.start();
    connection.onProgress = (p) => display.progress({ progress: p.progress, total: p.total, message: p.message });
    let result: ToolResult;
    try {
      result = command.task
        ? await runTaskCall(connection, command.tool, args, {
            signal: interrupt.signal,
            display,
            ask,
            http: command.target.kind === 'http'
          })
        : ((await connection.client.callTool(
            { name: command.tool, arguments: args },
            {
              signal: interrupt.signal,
              timeout: CALL_TIMEOUT_MS,
              resetTimeoutOnProgress: true,
              // Asks for progress (a progressToken); the display reads it at the transport (Connection.onProgress).
              onprogress: () => undefined
            }
          )) as ToolResult);
    } catch (error) {
      if (interrupt.signal.aborted) {
        display.finish();
        note(
          terminal,
          paint(
            terminal,
            'yellow',
            `✖ Cancelled: ${command.task ? 'the task was sent tasks/cancel' : cancellationNote(connection, command.target.kind === 'stdio')}.`
          )
        );
        return ExitCode.CANCELLED;
      }
      display.pause();
      note(terminal, paint(terminal, 'red', `✖ ${describeFailure(error)}`));
      return ExitCode.PROTOCOL_ERROR;
    }
    display.finish();
    printResult(terminal, result, command.json);
    return result.isError ? ExitCode.TOOL_ERROR : ExitCode.OK;
  } finally {
    display.pause();
    await connection.close();
    interrupt.disarm();
  }
}
