import fc from 'fast-check';
import { ProtocolError, UriTemplate, type Client } from '@modelcontextprotocol/client';
import { FusionApp, type Constructor } from '@mcpfusion/core';
import { connectTestClient, type TestClient } from '@mcpfusion/core/testing';
import { SchemaCatalog } from '../../src/schema/json-schema';
import { createBillingApp } from '../../sample-app/app';
import { createConformanceApp } from '../conformance/server';
import { CollectionsLetterArgs, InvoiceUriVariables } from '../../sample-app/billing/billing.inputs';
import { tempDb, TEST_STATE_KEY, type TempDb } from '../../sample-app/test-helpers';
import { brokenArgs, preview, validArgs, type BrokenOptions, type Schema } from './schema-arbitraries';

/**
 * Property-based fuzzing of ARGUMENTS, for every tool, resource template and prompt of the
 * sample app and of the conformance server, through a real SDK client (2026-07-28, in-process):
 *
 * - broken (one constraint of the listed schema violated) → refused: a tool answers
 *   `isError` with `Invalid arguments for tool <name>:`; a template or a prompt a JSON-RPC -32602;
 * - valid → not refused as invalid (the handler runs, asks for input, or fails on its own terms);
 * - always: an answer within REQUEST_TIMEOUT_MS, no stack trace in anything sent back, and the
 *   server still answers a plain call afterwards.
 *
 * Reproduce a failure with the seed it prints: `FUZZ_SEED=<seed> npx jest test/fuzz`.
 */

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20260728;
if (!Number.isSafeInteger(SEED)) throw new Error(`FUZZ_SEED must be an integer, not ${process.env.FUZZ_SEED}`);
const REQUEST_TIMEOUT_MS = 5_000;
/**
 * Runs per member and property. A schema without properties offers few ways to break it and one
 * valid value (`{}`): fewer broken runs, one valid run.
 */
const RUNS = { broken: 60, brokenNoProperties: 24, valid: 30 };

/** A stack frame (`\n    at fn (file.ts:1:2)`) or its indentation, anywhere in a string sent back. */
const STACK_TRACE = /\n\s+at .+\(.*:\d+:\d+\)|    at /;

type Outcome = { readonly result: Record<string, unknown> } | { readonly error: { code?: number; message: string; data?: unknown } };

/** The answer to one request: its result, or the JSON-RPC error the server sent. A hang or a client-side failure throws. */
async function answer(send: (options: { timeout: number }) => Promise<unknown>): Promise<Outcome> {
  try {
    return { result: (await send({ timeout: REQUEST_TIMEOUT_MS })) as Record<string, unknown> };
  } catch (error) {
    if (!(error instanceof ProtocolError)) {
      throw new Error(`no JSON-RPC answer (a hang, a crash or a client-side refusal): ${String(error)}`, { cause: error });
    }
    return { error: { code: error.code, message: error.message, data: error.data } };
  }
}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Every string in a value (texts, structured content, error messages and data). */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

function assertNoStackTrace(outcome: Outcome): void {
  const leaked = stringsIn(outcome).find((text) => STACK_TRACE.test(text));
  if (leaked !== undefined) throw new Error(`a stack trace was sent back: ${clip(leaked, 400)}`);
}

function firstText(outcome: Outcome): string {
  if (!('result' in outcome)) return '';
  const content = outcome.result.content as Array<{ type: string; text?: string }> | undefined;
  return content?.[0]?.type === 'text' ? (content[0].text ?? '') : '';
}

/** One member (tool, template or prompt) as listed, and how to call it. */
interface Member {
  readonly label: string;
  /** The schema the arguments are derived from. */
  readonly schema: Schema;
  /** The broken properties to run: each a name and the options of its generator. */
  readonly broken: ReadonlyArray<{ readonly what: string; readonly options: BrokenOptions }>;
  /** Whether a member that ran may answer with a JSON-RPC error (a domain error of a prompt or a resource). */
  readonly errorsAreAnswers: boolean;
  readonly call: (client: Client, args: Record<string, unknown>, options: { timeout: number }) => Promise<unknown>;
  /** Whether an outcome is the refusal broken arguments must get. */
  readonly refused: (outcome: Outcome) => boolean;
  /** Whether an outcome is a refusal as invalid (which valid arguments must never get). */
  readonly refusedAsInvalid: (outcome: Outcome) => boolean;
  /** What is wrong with the answer to valid arguments beyond a refusal, if anything. */
  readonly misread?: (args: Record<string, unknown>, outcome: Outcome) => string | undefined;
}

/** Per-member exceptions, each with its reason. */
interface Plan {
  /** Valid runs (default: {@link RUNS}`.valid`, or 1 for a schema without properties). */
  readonly validRuns?: number;
  /** A stricter schema to draw valid values from (they still conform to the listed one), for valid runs and the rest of broken sets. */
  readonly narrow?: (schema: Schema) => Schema;
  /** Capabilities the tool `requires`: the call goes through a client that declares them. */
  readonly capabilities?: Record<string, object>;
}

function toolMember(tool: { name: string; inputSchema: unknown }): Member {
  const prefix = `Invalid arguments for tool ${tool.name}:`;
  const refusedAsInvalid = (o: Outcome) => 'result' in o && o.result.isError === true && firstText(o).startsWith(prefix);
  return {
    label: `tool ${tool.name}`,
    schema: tool.inputSchema as Schema,
    broken: [{ what: 'broken arguments', options: {} }],
    errorsAreAnswers: false,
    call: (client, args, options) => client.callTool({ name: tool.name, arguments: args }, options),
    refused: refusedAsInvalid,
    refusedAsInvalid
  };
}

const invalidParams = (o: Outcome) => 'error' in o && o.error.code === -32602;

/**
 * A prompt: its arguments are strings (`prompts/list` gives names and `required`). Where the
 * test knows the prompt's input class, its schema adds what the listing cannot say.
 */
function promptMember(prompt: { name: string; arguments?: Array<{ name: string; required?: boolean }> }, inputClass?: Constructor): Member {
  const listed = prompt.arguments ?? [];
  const schema = inputClass
    ? agreeing(
        new SchemaCatalog().schemaOf(inputClass),
        listed.map((a) => a.name),
        listed.filter((a) => a.required).map((a) => a.name)
      )
    : stringsSchema(
        listed.map((a) => a.name),
        listed.filter((a) => a.required).map((a) => a.name)
      );
  return {
    label: `prompt ${prompt.name}`,
    schema,
    // Strings as the protocol has them (the framework's checks), and any JSON (the wire's).
    broken: [
      { what: 'broken arguments, string values', options: { strings: true } },
      { what: 'broken arguments, any JSON value', options: {} }
    ],
    errorsAreAnswers: true,
    call: (client, args, options) => client.getPrompt({ name: prompt.name, arguments: args as Record<string, string> }, options),
    refused: invalidParams,
    refusedAsInvalid: (o) => 'error' in o && o.error.message.includes(`Invalid arguments for prompt ${prompt.name}`)
  };
}

/**
 * A resource template: its variables are strings, expanded into the URI (percent-encoded), all
 * required and non-empty (an empty simple variable is the same URI as a missing one). Where
 * the resource echoes a variable under its own name, it must be the value sent.
 */
function templateMember(template: { name: string; uriTemplate: string }, inputClass?: Constructor): Member {
  const uriTemplate = new UriTemplate(template.uriTemplate);
  const variables = uriTemplate.variableNames;
  const schema = inputClass
    ? agreeing(new SchemaCatalog().schemaOf(inputClass), variables, variables)
    : stringsSchema(variables, variables, 1);
  return {
    label: `template ${template.uriTemplate}`,
    schema,
    broken: [{ what: 'broken variables', options: { strings: true, exclude: ['additionalProperty'] } }],
    errorsAreAnswers: true,
    call: (client, args, options) =>
      client.readResource({ uri: uriTemplate.expand(args as Record<string, string>) }, { ...options, cacheMode: 'bypass' }),
    refused: invalidParams,
    refusedAsInvalid: (o) => 'error' in o && o.error.message.includes('Invalid URI'),
    misread: (args, o) => {
      const echoed = 'result' in o ? jsonOf((o.result.contents as Array<{ text?: string }> | undefined)?.[0]?.text) : undefined;
      const differ = Object.keys(args).filter((k) => echoed !== undefined && k in echoed && String(echoed[k]) !== args[k]);
      return differ.length ? `the handler got ${differ.map((k) => `${k}=${JSON.stringify(echoed?.[k])}`).join(', ')}` : undefined;
    }
  };
}

function jsonOf(text: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function stringsSchema(names: readonly string[], required: readonly string[], minLength?: number): Schema {
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string', ...(minLength ? { minLength } : {}) }])),
    required: [...required],
    additionalProperties: false
  };
}

/** The input class's schema, after checking it names the listed arguments and requires the listed ones. */
function agreeing(schema: Schema, names: readonly string[], required: readonly string[]): Schema {
  const declared = Object.keys((schema.properties ?? {}) as object).sort();
  const needed = [...((schema.required as string[] | undefined) ?? [])].sort();
  expect({ declared, needed }).toEqual({ declared: [...names].sort(), needed: [...required].sort() });
  return schema;
}

function hasProperties(schema: Schema): boolean {
  return Object.keys((schema.properties ?? {}) as object).length > 0;
}

/** Everything an app's tests need: the app, one client (plus one per capability set), and the members. */
interface Served {
  readonly app: FusionApp;
  readonly client: TestClient;
  readonly clients: Map<string, TestClient>;
  /** A call that must keep working: the server still answers after a property ran. */
  readonly plainCall: (client: Client) => Promise<void>;
}

async function clientFor(served: Served, plan: Plan | undefined): Promise<Client> {
  if (!plan?.capabilities) return served.client.client;
  const key = JSON.stringify(plan.capabilities);
  let extra = served.clients.get(key);
  if (!extra) {
    extra = await connectTestClient(served.app, { capabilities: plan.capabilities });
    await extra.client.listTools();
    served.clients.set(key, extra);
  }
  return extra.client;
}

/**
 * Runs the broken and the valid property of each member, and the plain call after each.
 * Failures are collected so that one failing member does not hide the others; each message
 * carries fast-check's seed and path.
 */
async function fuzz(served: Served, members: readonly Member[], plans: Readonly<Record<string, Plan>>): Promise<void> {
  const failures: string[] = [];
  for (const member of members) {
    const plan = plans[member.label];
    const client = await clientFor(served, plan);
    const check = async <T>(what: string, property: fc.IAsyncProperty<[T]>, numRuns: number) => {
      try {
        await fc.assert(property, { seed: SEED, numRuns });
      } catch (error) {
        const cause = (error as Error).cause instanceof Error ? `\n${((error as Error).cause as Error).message}` : '';
        failures.push(`${member.label} (${what}): ${clip((error as Error).message.replace(/\nHint: .*/, ''), 1500)}${clip(cause, 1500)}`);
      }
      try {
        await served.plainCall(served.client.client);
      } catch (error) {
        failures.push(`${member.label}: the server stopped answering a plain call after the ${what} runs: ${String(error)}`);
      }
    };

    const narrowed = plan?.narrow?.(member.schema);
    for (const { what, options } of member.broken) {
      const broken = fc.asyncProperty(brokenArgs(member.schema, { ...options, base: narrowed }), async (b) => {
        const outcome = await answer((timeout) => member.call(client, b.args, timeout));
        assertNoStackTrace(outcome);
        // A top-level __proto__ never reaches the validator (the SDK's parse drops it): the HTTP
        // entry refuses that request itself with -32602 (see the README's security model).
        const refusedAtEntry = b.path === '__proto__' && 'error' in outcome && (outcome.error as { code?: unknown }).code === -32602;
        if (!refusedAtEntry && !member.refused(outcome)) {
          throw new Error(`${b.violation} at ${b.path} was not refused: sent ${preview(b.args)}, got ${preview(outcome, 600)}`);
        }
      });
      await check(what, broken, hasProperties(member.schema) ? RUNS.broken : RUNS.brokenNoProperties);
    }

    const valid = fc.asyncProperty(validArgs(narrowed ?? member.schema), async (args) => {
      const outcome = await answer((timeout) => member.call(client, args, timeout));
      assertNoStackTrace(outcome);
      if (member.refusedAsInvalid(outcome) || (!member.errorsAreAnswers && 'error' in outcome)) {
        throw new Error(`valid arguments were refused: sent ${preview(args)}, got ${preview(outcome, 600)}`);
      }
      const misread = member.misread?.(args, outcome);
      if (misread) throw new Error(`valid arguments were misread: sent ${preview(args)}, ${misread}`);
    });
    const validRuns = plan?.validRuns ?? (hasProperties(member.schema) ? RUNS.valid : 1);
    if (validRuns > 0) await check('valid arguments', valid, validRuns);
  }
  if (failures.length > 0) throw new Error(`FUZZ_SEED=${SEED}: ${failures.length} failure(s)\n\n${failures.join('\n\n')}`);
}

/** Lists the app's members through the client. */
async function listed(
  client: Client,
  classes: { templates?: Record<string, Constructor>; prompts?: Record<string, Constructor> } = {}
): Promise<{ tools: Member[]; templates: Member[]; prompts: Member[] }> {
  const { tools } = await client.listTools();
  const { resourceTemplates } = await client.listResourceTemplates();
  const { prompts } = await client.listPrompts();
  return {
    tools: tools.map(toolMember),
    templates: resourceTemplates.map((t) => templateMember(t, classes.templates?.[t.uriTemplate])),
    prompts: prompts.map((p) => promptMember(p, classes.prompts?.[p.name]))
  };
}

async function closeAll(served: Served | undefined): Promise<void> {
  if (!served) return;
  for (const extra of served.clients.values()) await extra.close();
  await served.client.close();
  await served.app.close();
}

const LONG = 60_000;

describe('argument fuzzing: sample app (billing desk)', () => {
  let db: TempDb;
  let served: Served;
  let members: Awaited<ReturnType<typeof listed>>;

  const plans: Record<string, Plan> = {
    // It pauses `throttleMs` (up to 1000) after each of the 24 seeded months, in a write
    // transaction: values drawn use at most 1 ms (the listed schema allows that too), and
    // there are fewer valid runs.
    'tool reports.rebuild': { narrow: (schema) => withMaximum(schema, 'throttleMs', 1), validRuns: 10 }
  };

  beforeAll(async () => {
    db = tempDb();
    const app = createBillingApp({ dbPath: db.path, stateKey: TEST_STATE_KEY });
    const client = await connectTestClient(app);
    served = {
      app,
      client,
      clients: new Map(),
      plainCall: async (c) => {
        const result = await c.callTool({ name: 'billing.invoice', arguments: { id: 1 } }, { timeout: REQUEST_TIMEOUT_MS });
        expect(result.isError).toBeFalsy();
      }
    };
    // The protocol lists no schema for template variables or prompt arguments (strings, by
    // name): the input classes say what the sample app's accept.
    members = await listed(client.client, {
      templates: { 'billing://invoices/{id}': InvoiceUriVariables },
      prompts: { 'billing.collections_letter': CollectionsLetterArgs }
    });
  });
  afterAll(async () => {
    await closeAll(served);
    db?.remove();
  });

  it('lists the members it fuzzes', () => {
    const tools = [
      'billing.invoice',
      'billing.list',
      'report.generate',
      'reports.rebuild',
      'billing.refund',
      'billing.adjust',
      'account.connect'
    ];
    expect(members.tools.map((m) => m.label)).toEqual(expect.arrayContaining(tools.map((name) => `tool ${name}`)));
    expect(members.templates.map((m) => m.label)).toContain('template billing://invoices/{id}');
    expect(members.prompts.map((m) => m.label)).toContain('prompt billing.collections_letter');
  });
  it('tools', () => fuzz(served, members.tools, plans), LONG);
  it('resource templates', () => fuzz(served, members.templates, plans), LONG);
  it('prompts', () => fuzz(served, members.prompts, plans), LONG);
});

describe('argument fuzzing: conformance server', () => {
  let served: Served;
  let members: Awaited<ReturnType<typeof listed>>;

  const plans: Record<string, Plan> = {
    // It `requires: { sampling: {} }`: a client without it gets -32021 whatever the arguments.
    'tool test_missing_capability': { capabilities: { sampling: {} } },
    // Each call adds or removes a tool (a prompt): two valid runs leave the lists as they were.
    'tool test_trigger_tool_change': { validRuns: 2 },
    'tool test_trigger_prompt_change': { validRuns: 2 },
    // Task tools: with the tasks extension declared, a valid call of these is a task, which the plain SDK
    // client does not read ("Unsupported result type 'task'"): only broken arguments are fuzzed (refused
    // before anything runs, synchronously); test/integration/tasks.test.ts drives them as tasks.
    'tool failing_job': { capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } }, validRuns: 0 },
    'tool protocol_error_job': { capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } }, validRuns: 0 },
    // Its first round asks for a name in the request (MRTR): that part a plain client reads.
    'tool test_tool_with_task': { capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    // It sleeps `seconds` seconds: valid values stay at 0 (broken ones are refused before it runs).
    'tool slow_compute': { narrow: (schema) => withMaximum(schema, 'seconds', 0) }
  };

  beforeAll(async () => {
    const app = createConformanceApp();
    const client = await connectTestClient(app);
    // The dynamic tool and prompt exist only once triggered: add them, so they are fuzzed too.
    for (const name of ['test_trigger_tool_change', 'test_trigger_prompt_change']) await client.client.callTool({ name, arguments: {} });
    served = {
      app,
      client,
      clients: new Map(),
      plainCall: async (c) => {
        const result = await c.callTool({ name: 'test_simple_text', arguments: {} }, { timeout: REQUEST_TIMEOUT_MS });
        expect(firstText({ result })).toBe('This is a simple text response for testing.');
      }
    };
    members = await listed(client.client);
  });
  afterAll(() => closeAll(served));

  it('lists the members it fuzzes', () => {
    expect(members.tools.map((m) => m.label)).toContain('tool test_dynamic_tool');
    expect(members.prompts.map((m) => m.label)).toContain('prompt test_dynamic_prompt');
    expect(members.templates).toHaveLength(1);
  });
  it('tools', () => fuzz(served, members.tools, plans), LONG);
  it('resource templates', () => fuzz(served, members.templates, plans), LONG);
  it('prompts', () => fuzz(served, members.prompts, plans), LONG);
});

/** The schema with a lower `maximum` for one property. */
function withMaximum(schema: Schema, property: string, maximum: number): Schema {
  const properties = schema.properties as Record<string, Schema>;
  return { ...schema, properties: { ...properties, [property]: { ...properties[property], maximum } } };
}
