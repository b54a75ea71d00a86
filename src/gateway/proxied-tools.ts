import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import { ConfigurationError } from '../errors';
import { compileSchemaCheck } from '../schema/schema-check';
import type { Constructor, JsonSchema } from '../types/core';
import type { Presenter } from '../types/presenter';
import { namespacedName } from './namespace';
import { toolProblem } from './guards/listing-guard';
import type { ProxyOptions } from './proxy-options';

/** A gateway's listing: the descriptors the app compiles, and the upstream name behind each front name. */
export interface ProxiedTools {
  readonly descriptors: readonly ToolDescriptor[];
  readonly upstreamOf: ReadonlyMap<string, string>;
}

/** The listing key of a tool that may ask mid-call, as an upstream made with this framework lists it (`INTERACTIVE_META_KEY`). */
const INTERACTIVE_KEY = 'io.mcpfusion/interactive';

/** The upstream's result, as it came: the upstream shaped it already. */
const PASS_THROUGH: Presenter = { present: (value) => value as CallToolResult };

/**
 * Whether a proxied tool is listed as one that may ask the user mid-call. The protocol gives no
 * way to know it ahead: a server declares no capability for asking (the client does), and a tool
 * says nothing of it. So the listing says what is known: the upstream's own word, where it lists
 * the framework's key (an upstream made with this framework), else what the gateway saw (the tool
 * asked the front client during a call, `asking`), and nothing otherwise. Marking every tool
 * would tell a client that each may interrupt the user, which the common tool never does. The
 * chain stays interactive for every proxied tool all the same: a question that comes during any
 * call is still forwarded.
 */
function listedInteractive(tool: Tool, asking: ReadonlySet<string>): boolean {
  return tool._meta?.[INTERACTIVE_KEY] === true || asking.has(tool.name);
}

/**
 * The descriptors of an upstream's tools as this app serves them: named under the namespace,
 * listed with the upstream's description, title, icons, schemas and annotations as they are (a
 * destructive tool stays destructive: nothing the framework's kinds imply is added), served by
 * the gateway's forwarding generator. They are never serialized by this app's mutation lock: the
 * upstream serializes its own work. A tool whose front name the protocol refuses, that is past a
 * size bound, or whose front name collides with one served before it is left out (and logged,
 * naming both; see guards/listing-guard.ts); an output schema this app cannot compile is not
 * listed (the upstream still checks its results).
 */
export function proxiedTools(
  tools: readonly Tool[],
  members: Constructor,
  options: ProxyOptions,
  label: string,
  log: (message: string) => void,
  /** Upstream tools seen asking the front client during a call (see `listedInteractive`). */
  asking: ReadonlySet<string> = new Set()
): ProxiedTools {
  const descriptors: ToolDescriptor[] = [];
  const upstreamOf = new Map<string, string>();
  const seen = new Map<string, string>();
  for (const tool of tools) {
    const name = namespacedName(options.namespace, String(tool.name));
    const problem = toolProblem(tool, name, seen);
    if (problem) {
      log(`${label}: upstream tool ${JSON.stringify(String(tool.name).slice(0, 200))} is left out: ${problem}.`);
      continue;
    }
    seen.set(name.toLowerCase(), tool.name);
    upstreamOf.set(name, tool.name);
    const output = compiles(tool.outputSchema as JsonSchema | undefined, name);
    if (tool.outputSchema && !output) log(`${label}: the output schema of ${tool.name} cannot be compiled here; it is not listed.`);
    const scopes = typeof options.scopes === 'function' ? options.scopes(tool) : (options.scopes ?? []);
    descriptors.push(
      Object.freeze({
        name,
        kind: 'action' as const,
        // Every proxied call can forward a question (the chain's input steps); the listing says so only where it is known.
        interactive: true,
        listed: Object.freeze({
          interactive: listedInteractive(tool, asking),
          // A tool that requires (or takes) a task stays marked so: the upstream's own `execution`, as it listed it.
          ...(tool.execution ? { execution: Object.freeze({ ...tool.execution }) } : {})
        }),
        // The answer to an upstream question authorizes what the upstream does next: each state is good once.
        singleUseState: true,
        answersUpFront: false,
        exactlyOnce: false,
        description: tool.description ?? `${tool.name}, served by ${label}`,
        ...(tool.title ? { title: tool.title } : {}),
        ...(tool.icons ? { icons: tool.icons } : {}),
        annotations: Object.freeze({ ...tool.annotations }),
        target: members,
        className: label,
        methodName: 'forward',
        // The input scope as a parameter: a proxied call runs outside the ambient one (no AsyncLocalStorage).
        params: Object.freeze(['input', 'context', 'signal', 'inputScope'] as const),
        presenter: PASS_THROUGH,
        middleware: [],
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        scopes: Object.freeze([...scopes]),
        isGenerator: true,
        schemas: Object.freeze({ input: tool.inputSchema as JsonSchema, ...(output ? { output } : {}) })
      })
    );
  }
  return { descriptors, upstreamOf };
}

/** The schema when this app can check results against it, else undefined. */
function compiles(schema: JsonSchema | undefined, name: string): JsonSchema | undefined {
  if (!schema) return undefined;
  try {
    compileSchemaCheck(schema, `tool ${name}`, false, 'output');
    return schema;
  } catch (error) {
    if (error instanceof ConfigurationError) return undefined;
    throw error;
  }
}

/** The upstream's `execution.taskSupport` (untrusted), kept in the listing: a tool that needs a task stays marked as one. */
