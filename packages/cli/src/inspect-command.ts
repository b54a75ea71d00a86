import { ExitCode, type ExitCodeValue } from './cli-error';
import { connect, type Connection } from './connection';
import type { InspectCommand } from './options';
import { listEvery } from './paged-list';
import { paint, type Terminal } from './terminal';

/** An item of a listing as the server sent it (untrusted data). */
type Listed = Record<string, unknown>;

/**
 * What `mcpfusion inspect --json` prints: one document with all a server declares. Items are
 * kept as listed (tools with their schemas, annotations, icons, `execution` and `_meta`, where
 * a view's `ui` reference lives), so a script, a diff or a snapshot test sees what a client sees.
 */
export interface Inspection {
  readonly server: { name?: string; version?: string; title?: string };
  /** The negotiated protocol version (`2025-11-25`, `2026-07-28`, …). */
  readonly protocolVersion: string;
  /** `modern` (2026-07-28 and later, `server/discover`) or `legacy` (the `initialize` handshake). */
  readonly era: string;
  readonly instructions?: string;
  readonly capabilities: Record<string, unknown>;
  /** `capabilities.extensions`, by name (the tasks extension, skills, …); `{}` when none. */
  readonly extensions: Record<string, unknown>;
  readonly tools: Listed[];
  readonly prompts: Listed[];
  readonly resources: Listed[];
  readonly resourceTemplates: Listed[];
}

/**
 * Reads everything the connected server declares: identity, era, capabilities and every page
 * of its tools, prompts, resources and resource templates. A list the server has no capability
 * for is empty (not asked, not an error).
 */
export async function inspectServer(connection: Connection): Promise<Inspection> {
  const { client } = connection;
  const capabilities = (client.getServerCapabilities() ?? {}) as Record<string, unknown>;
  const info = client.getServerVersion();
  const instructions = client.getInstructions();
  const extensions = capabilities.extensions;
  return {
    server: { name: info?.name, version: info?.version, ...(info?.title !== undefined ? { title: info.title } : {}) },
    protocolVersion: connection.protocolVersion,
    era: client.getProtocolEra() ?? 'unknown',
    ...(instructions !== undefined ? { instructions } : {}),
    capabilities,
    extensions: typeof extensions === 'object' && extensions !== null ? (extensions as Record<string, unknown>) : {},
    tools: capabilities.tools ? await listEvery(connection, { method: 'tools/list', key: 'tools' }) : [],
    prompts: capabilities.prompts ? await listEvery(connection, { method: 'prompts/list', key: 'prompts' }) : [],
    resources: capabilities.resources ? await listEvery(connection, { method: 'resources/list', key: 'resources' }) : [],
    resourceTemplates: capabilities.resources
      ? await listEvery(connection, { method: 'resources/templates/list', key: 'resourceTemplates' })
      : []
  };
}

/**
 * `mcpfusion inspect <target> [--json]`: with `--json`, the {@link Inspection} as one JSON
 * document on stdout; without, a short summary (identity, era, capabilities, counts).
 */
export async function runInspect(command: InspectCommand, terminal: Terminal): Promise<ExitCodeValue> {
  const connection = await connect(command);
  try {
    const inspection = await inspectServer(connection);
    terminal.out.write(command.json ? `${JSON.stringify(inspection, null, 2)}\n` : summary(inspection, terminal));
    return ExitCode.OK;
  } finally {
    await connection.close();
  }
}

/** The server's strings shown in a terminal without the control characters they might carry. */
function plain(value: unknown): string {
  return String(value ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

function summary(inspection: Inspection, terminal: Terminal): string {
  const { server } = inspection;
  const title = server.title ? ` "${plain(server.title)}"` : '';
  const lines = [
    `${paint(terminal, 'bold', `${plain(server.name ?? 'server')} ${plain(server.version)}`.trim())}${title} (protocol ${plain(inspection.protocolVersion)}, ${inspection.era})`,
    `capabilities: ${Object.keys(inspection.capabilities).map(plain).join(', ') || 'none'}`,
    `extensions: ${Object.keys(inspection.extensions).map(plain).join(', ') || 'none'}`,
    [
      count(inspection.tools.length, 'tool'),
      count(inspection.prompts.length, 'prompt'),
      count(inspection.resources.length, 'resource'),
      count(inspection.resourceTemplates.length, 'resource template')
    ].join(', '),
    '(--json prints the whole document; mcpfusion list shows them as tables)'
  ];
  return `${lines.join('\n')}\n`;
}
