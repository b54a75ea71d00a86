import { McpServer, fromJsonSchema } from '@modelcontextprotocol/server';
import { IsString, MaxLength } from 'class-validator';
import { Action, FusionApp, Input, ToolProvider } from '../../src';

/** The `echo` tool's input: one string, at most 1,000 characters (validated by class-validator). */
class EchoInput {
  @IsString() @MaxLength(1000) text!: string;
}

/** The framework's `echo`: a decorated method returning its input's text. */
@ToolProvider()
export class EchoTools {
  @Action('echo', { description: 'Echoes text' })
  echo(@Input() input: EchoInput) {
    return input.text;
  }
}

/** The framework contender: an app serving `echo` and nothing else. */
export function echoApp(): FusionApp {
  return FusionApp.create({ name: 'echo', version: '1.0.0', tools: [EchoTools], logger: () => undefined });
}

/**
 * The bare SDK's `echo` input schema, made once for the process (as a careful bare-SDK user
 * would: the per-request factory then reuses its compiled validator).
 */
const ECHO_INPUT = fromJsonSchema<{ text: string }>({
  type: 'object',
  properties: { text: { type: 'string', maxLength: 1000 } },
  required: ['text'],
  additionalProperties: false
});

/** The bare SDK v2 contender's server, built per request by `createMcpHandler`: the same tool, validated by the SDK. */
export function bareEchoServer(): McpServer {
  const server = new McpServer({ name: 'bare-echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes text', inputSchema: ECHO_INPUT }, async ({ text }) => ({
    content: [{ type: 'text', text }]
  }));
  return server;
}
