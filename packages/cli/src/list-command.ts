import type { Tool } from '@modelcontextprotocol/client';
import { ExitCode, type ExitCodeValue } from './cli-error';
import { connect, type Connection } from './connection';
import type { ListCommand } from './options';
import { listEvery } from './paged-list';
import { paint, type Terminal } from './terminal';

/** A tool as the listing shows it, with the hints read from its annotations, `execution` and `_meta`. */
type ListedTool = Tool;

/**
 * The kind hints of a tool: `read-only` or `destructive` (from its annotations), `interactive`
 * (when the server marks it in `_meta`, as `io.mcpfusion/interactive`) and `task` (when it
 * declares task support).
 */
export function kindHints(tool: ListedTool): string[] {
  const hints: string[] = [];
  const annotations = tool.annotations ?? {};
  if (annotations.readOnlyHint) hints.push('read-only');
  else if (annotations.destructiveHint !== false) hints.push('destructive');
  const meta = (tool._meta ?? {}) as Record<string, unknown>;
  if (meta['io.mcpfusion/interactive'] === true) hints.push('interactive');
  const taskSupport = tool.execution?.taskSupport;
  if (taskSupport && taskSupport !== 'forbidden') hints.push(taskSupport === 'required' ? 'task (required)' : 'task');
  return hints;
}

/** Rows as aligned columns (the last column is not padded). */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function firstLine(text: string | undefined, max = 72): string {
  const line = (text ?? '').split('\n')[0].trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

async function gather(connection: Connection): Promise<{
  tools: ListedTool[];
  resources: Array<{ uri: string; name: string; description?: string }>;
  templates: Array<{ uriTemplate: string; name: string; description?: string }>;
  prompts: Array<{ name: string; description?: string; arguments?: Array<{ name: string; required?: boolean }> }>;
}> {
  const { client } = connection;
  const capabilities = client.getServerCapabilities() ?? {};
  const tools = await listAllTools(connection);
  const resources = capabilities.resources ? (await client.listResources()).resources : [];
  const templates = capabilities.resources ? (await client.listResourceTemplates()).resourceTemplates : [];
  const prompts = capabilities.prompts ? (await client.listPrompts()).prompts : [];
  return { tools, resources, templates, prompts };
}

/** Every tool of the server, page by page, as listed (none when it offers no tools). */
export async function listAllTools(connection: Connection): Promise<ListedTool[]> {
  if (!connection.client.getServerCapabilities()?.tools) return [];
  return listEvery<ListedTool>(connection, { method: 'tools/list', key: 'tools' });
}

/** `mcpfusion list`: tools (with kind hints), resources, templates and prompts as tables, or as JSON with `--json`. */
export async function runList(command: ListCommand, terminal: Terminal): Promise<ExitCodeValue> {
  const connection = await connect(command);
  try {
    const listing = await gather(connection);
    if (command.json) {
      terminal.out.write(`${JSON.stringify({ protocolVersion: connection.protocolVersion, ...listing }, null, 2)}\n`);
      return ExitCode.OK;
    }
    const server = connection.client.getServerVersion();
    const heading = (text: string): string => paint(terminal, 'bold', text);
    const sections = [`${heading(`${server?.name ?? 'server'} ${server?.version ?? ''}`.trim())} (protocol ${connection.protocolVersion})`];
    sections.push(
      `${heading(`Tools (${listing.tools.length})`)}\n${table(
        ['NAME', 'KIND', 'ARGUMENTS', 'DESCRIPTION'],
        listing.tools.map((tool) => [tool.name, kindHints(tool).join(', '), argumentsOf(tool), firstLine(tool.description ?? tool.title)])
      )}`
    );
    if (listing.resources.length)
      sections.push(
        `${heading(`Resources (${listing.resources.length})`)}\n${table(
          ['URI', 'NAME', 'DESCRIPTION'],
          listing.resources.map((r) => [r.uri, r.name, firstLine(r.description)])
        )}`
      );
    if (listing.templates.length)
      sections.push(
        `${heading(`Resource templates (${listing.templates.length})`)}\n${table(
          ['URI TEMPLATE', 'NAME', 'DESCRIPTION'],
          listing.templates.map((t) => [t.uriTemplate, t.name, firstLine(t.description)])
        )}`
      );
    if (listing.prompts.length)
      sections.push(
        `${heading(`Prompts (${listing.prompts.length})`)}\n${table(
          ['NAME', 'ARGUMENTS', 'DESCRIPTION'],
          listing.prompts.map((p) => [
            p.name,
            (p.arguments ?? []).map((a) => (a.required ? a.name : `[${a.name}]`)).join(' '),
            firstLine(p.description)
          ])
        )}`
      );
    terminal.out.write(`${sections.join('\n\n')}\n`);
    return ExitCode.OK;
  } finally {
    await connection.close();
  }
}

/** The arguments of a tool in one cell: `id` required, `[limit]` optional. */
function argumentsOf(tool: Tool): string {
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const required = new Set(schema.required ?? []);
  return Object.keys(schema.properties ?? {})
    .map((name) => (required.has(name) ? name : `[${name}]`))
    .join(' ');
}
