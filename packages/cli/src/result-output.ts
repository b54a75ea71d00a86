import { paint, type Terminal } from './terminal';

/** The parts of a `tools/call` result the terminal shows. */
export interface ToolResult {
  content?: Array<Record<string, unknown> & { type: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

/** Whether a text block is just the structured content serialized (servers send both; showing it once is enough). */
function echoesStructured(text: string, structured: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(structured);
  } catch {
    return false;
  }
}

function describeBlock(block: Record<string, unknown> & { type: string }): string {
  switch (block.type) {
    case 'text':
      return String(block.text ?? '');
    case 'image':
    case 'audio':
      return `[${block.type}: ${String(block.mimeType ?? 'unknown type')}, ${Math.floor((String(block.data ?? '').length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[link: ${String(block.uri ?? '')}${block.name ? ` (${String(block.name)})` : ''}]`;
    case 'resource': {
      const resource = (block.resource ?? {}) as { uri?: string; text?: string };
      return resource.text !== undefined ? resource.text : `[resource: ${resource.uri ?? ''}]`;
    }
    default:
      return `[${block.type} block]`;
  }
}

/**
 * The result as a person reads it: text blocks as text, other blocks as one line each, the
 * structured content as pretty JSON (a text block that only repeats it is not shown twice).
 */
export function formatResult(result: ToolResult): string {
  const structured = result.structuredContent;
  const parts = (result.content ?? [])
    .filter((block) => !(structured !== undefined && block.type === 'text' && echoesStructured(String(block.text ?? ''), structured)))
    .map(describeBlock);
  if (structured !== undefined) parts.push(JSON.stringify(structured, null, 2));
  return parts.join('\n');
}

/** Writes the result to stdout: raw JSON with `--json`, else {@link formatResult}; an `isError` result is marked on stderr. */
export function printResult(terminal: Terminal, result: ToolResult, json: boolean): void {
  if (json) {
    terminal.out.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  if (result.isError) terminal.err.write(`${paint(terminal, 'red', '✖ The tool answered with an error:')}\n`);
  const text = formatResult(result);
  if (text) terminal.out.write(`${text}\n`);
}
