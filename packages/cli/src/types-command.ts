import { readFileSync, writeFileSync } from 'node:fs';
import { ExitCode, type ExitCodeValue } from './cli-error';
import { connect } from './connection';
import { listAllTools } from './list-command';
import type { TypesCommand } from './options';
import { emitToolTypes } from './schema-types';
import { note, type Terminal } from './terminal';

/**
 * `mcpfusion types`: connects as `list` does and writes the TypeScript types of every tool's
 * input and output, from the schemas the server lists, to stdout or `--out file.ts`. A view
 * (or any client) that imports them fails its build when a field it uses is renamed.
 */
export async function runTypes(command: TypesCommand, terminal: Terminal): Promise<ExitCodeValue> {
  const connection = await connect(command);
  try {
    const tools = await listAllTools(connection);
    const server = connection.client.getServerVersion();
    const header =
      `Tools of ${server?.name ?? 'the server'} ${server?.version ?? ''}`.trim() + ` (protocol ${connection.protocolVersion}).`;
    const text = emitToolTypes(tools, header);
    if (command.out === undefined) {
      terminal.out.write(text);
      return ExitCode.OK;
    }
    // Unchanged types leave the file alone: a rewrite would make every build that watches its
    // modification time (`npm start`'s staleness check, a bundler's watch) think a source changed.
    if (readIfThere(command.out) === text) {
      note(terminal, `the types of ${tools.length} tool(s) in ${command.out} are up to date`);
      return ExitCode.OK;
    }
    writeFileSync(command.out, text);
    note(terminal, `wrote the types of ${tools.length} tool(s) to ${command.out}`);
    return ExitCode.OK;
  } finally {
    await connection.close();
  }
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
