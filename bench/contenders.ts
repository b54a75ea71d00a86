import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer, fromJsonSchema } from '@modelcontextprotocol/server';
import { IsInt, Max, Min } from 'class-validator';
import { Action, Ctx, FusionApp, Input, Mutation, ToolProvider, progress, type CallContext, type FusionAppOptions, type MutationLock } from '../src';

const WORK = (n: number) => ({ doubled: n * 2 });

class NumberInput {
  @IsInt() @Min(0) @Max(1_000_000) n!: number;
}

/** Signals the benchmark waits on. */
export class BenchProbe {
  onEnter: (() => void) | undefined;
}

@ToolProvider()
export class BenchTools {
  constructor(private readonly probe: BenchProbe) {}

  @Action('double', { description: 'Doubles n' })
  double(@Input() input: NumberInput) {
    return JSON.stringify(WORK(input.n));
  }

  @Action('double.stream', { description: 'Doubles n with 10 progress steps' })
  async *doubleStream(@Input() input: NumberInput) {
    for (let i = 1; i <= 10; i++) yield progress(i * 10, 'step');
    return JSON.stringify(WORK(input.n));
  }

  /** The same generator shape with no progress events: the baseline for what progress costs without a token. */
  @Action('double.quiet', { description: 'Doubles n, yielding 10 plain values' })
  async *doubleQuiet(@Input() input: NumberInput) {
    for (let i = 1; i <= 10; i++) yield i;
    return JSON.stringify(WORK(input.n));
  }

  @Mutation('stuck', { description: 'Blocks on a promise that never settles' })
  async *stuck(@Ctx() _ctx: CallContext) {
    yield progress(1);
    this.probe.onEnter?.();
    await new Promise<never>(() => undefined);
  }

  @Mutation('quick', { description: 'A quick mutation' })
  quick() {
    this.probe.onEnter?.();
    return 'ok';
  }
}

/**
 * The input schema of the bare SDK's tools, made once for the process (as a careful user of the
 * bare SDK would: a per-request server factory then reuses its compiled validator).
 */
const BARE_INPUT = fromJsonSchema<{ n: number }>({
  type: 'object',
  properties: { n: { type: 'integer', minimum: 0, maximum: 1_000_000 } },
  required: ['n'],
  additionalProperties: false
});

/** The bare SDK v2 server doing the same work, validated by the SDK (AJV). */
export function bareSdkServer(): McpServer {
  const server = new McpServer({ name: 'bare', version: '1.0.0' });
  const input = BARE_INPUT;
  server.registerTool('double', { description: 'Doubles n', inputSchema: input }, async ({ n }) => ({
    content: [{ type: 'text', text: JSON.stringify(WORK(n)) }]
  }));
  server.registerTool('double.stream', { description: 'Doubles n with 10 progress steps', inputSchema: input }, async ({ n }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token !== undefined) {
      for (let i = 1; i <= 10; i++) {
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken: token, progress: i * 10, total: 100, message: 'step' }
        });
      }
    }
    return { content: [{ type: 'text', text: JSON.stringify(WORK(n)) }] };
  });
  return server;
}

/** A 2025-era client connected in memory to a server instance. */
export async function connectInMemory(server: { connect(t: InMemoryTransport): Promise<void> }): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

export function benchApp(
  probe: BenchProbe,
  concurrency = { maxActive: 64, maxQueue: 1024 },
  logger?: (line: string) => void,
  mutationLock?: MutationLock,
  telemetry?: FusionAppOptions['telemetry']
): FusionApp {
  return FusionApp.create({
    name: 'bench',
    version: '1.0.0',
    tools: [BenchTools],
    providers: [{ provide: BenchProbe, useValue: probe }],
    concurrency,
    ...(logger ? { logger } : {}),
    ...(mutationLock ? { mutationLock } : {}),
    ...(telemetry !== undefined ? { telemetry } : {})
  });
}
