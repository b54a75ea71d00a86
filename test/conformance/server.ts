import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { IsIn, IsObject, IsOptional, IsString } from 'class-validator';
import { IsInt, Max, Min } from 'class-validator';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { inject } from 'tsyringe';
import {
  Action,
  Ctx,
  FUSION_APP,
  FusionApp,
  Input,
  Interactive,
  JSONSchema,
  Prompt,
  Resource,
  ResourceTemplate,
  ToolError,
  ToolProvider,
  ask,
  progress,
  readInput,
  readRequestState,
  requireInput,
  type CallContext,
  type InputRound
} from '../../src';

/**
 * The conformance server: the tools of the official MCP conformance suite
 * (`@modelcontextprotocol/conformance`, `src/scenarios/server/*.ts` and the reference
 * `examples/servers/typescript/everything-server.ts`) that the framework can serve today,
 * built with the public API only. Started by `scripts/conformance/run.sh`.
 *
 * Interactive tools use the framework's `@Interactive()` + `requireInput.*`: real
 * `elicitation/create` / `sampling/createMessage` requests on 2025-era sessions, `input_required`
 * results (MRTR) on 2026-07-28 requests. Resources, prompts, completions and logging use
 * `@Resource`, `@ResourceTemplate`, `@Prompt` and the context logger.
 *
 * Environment: PORT (default 0: a free port). The URL goes to stderr as `listening <url>`;
 * nothing is ever written to stdout.
 */

/** A 1x1 red PNG pixel (the suite's TEST_IMAGE_BASE64). */
const TEST_IMAGE_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A minimal WAV file (the suite's TEST_AUDIO_BASE64). */
const TEST_AUDIO_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true }
    );
  });

/** An address of the JSON Schema 2020-12 tool (SEP-1613). */
class Address {
  @IsOptional() @IsString() street?: string;
  @IsOptional() @IsString() city?: string;
}

/**
 * Input of `json_schema_2020_12_tool` (pending scenario `json-schema-2020-12`, SEP-1613 and
 * SEP-2106): the listed inputSchema must keep `$schema`, `$defs` (with `$anchor`),
 * `additionalProperties: false`, `allOf`/`anyOf` and `if`/`then`/`else`. The class-level
 * `@JSONSchema` adds what class-validator cannot express; validation stays class-validator's.
 */
@JSONSchema({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } }
    }
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] }
} as never)
class JsonSchema2020Input {
  @IsOptional() @IsString() name?: string;

  @JSONSchema({ $ref: '#/$defs/address' } as never)
  @IsOptional()
  @IsObject()
  address?: Address;

  @IsOptional() @IsIn(['phone', 'email']) contactMethod?: 'phone' | 'email';
  @IsOptional() @IsString() phone?: string;
  @IsOptional() @IsString() email?: string;
}

/** Input of `test_custom_headers` (pending scenario `http-custom-header-server-validation`, SEP-2243). */
class RegionInput {
  @JSONSchema({ description: 'Region the request is routed to', 'x-mcp-header': 'Region' } as never)
  @IsString()
  region!: string;

  @IsOptional() @IsString() note?: string;
}

@ToolProvider()
class ConformanceTools {
  /** Scenario `tools-call-simple-text`. */
  @Action('test_simple_text', { description: 'Tests simple text content response' })
  simpleText() {
    return 'This is a simple text response for testing.';
  }

  /** Scenario `tools-call-image`. */
  @Action('test_image_content', { description: 'Tests image content response' })
  imageContent() {
    return { content: [{ type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' }] };
  }

  /** Scenario `tools-call-audio`. */
  @Action('test_audio_content', { description: 'Tests audio content response' })
  audioContent() {
    return { content: [{ type: 'audio', data: TEST_AUDIO_BASE64, mimeType: 'audio/wav' }] };
  }

  /** Scenario `tools-call-embedded-resource`. */
  @Action('test_embedded_resource', { description: 'Tests embedded resource content response' })
  embeddedResource() {
    return {
      content: [
        {
          type: 'resource',
          resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' }
        }
      ]
    };
  }

  /** Scenario `tools-call-mixed-content`. */
  @Action('test_multiple_content_types', { description: 'Tests response with multiple content types (text, image, resource)' })
  multipleContentTypes() {
    return {
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 })
          }
        }
      ]
    };
  }

  /** Scenario `tools-call-error`: a thrown error becomes an `isError: true` result. */
  @Action('test_error_handling', { description: 'Tests error response handling' })
  errorHandling(): never {
    throw new Error('This tool intentionally returns an error for testing');
  }

  /** Scenario `tools-call-with-progress`: 0, 50, 100 of 100, ~50 ms apart. */
  @Action('test_tool_with_progress', { description: 'Tests tool that reports progress notifications' })
  async *withProgress(@Ctx() ctx: CallContext) {
    for (const step of [0, 50, 100]) {
      if (step > 0) await sleep(50, ctx.signal);
      yield progress(step, `Completed step ${step} of 100`);
    }
    return 'Progress test completed';
  }

  /**
   * Pending scenario `server-sse-polling` (2025, SEP-1699): closes its own SSE stream mid-call;
   * the client reconnects with `Last-Event-ID` and gets the response from the session's event store.
   */
  @Action('test_reconnection', { description: 'Closes its SSE stream mid-call to test resumability' })
  async reconnection(@Ctx() ctx: CallContext) {
    await sleep(50, ctx.signal);
    ctx.closeStream?.();
    await sleep(200, ctx.signal);
    return 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.';
  }

  /** Pending scenario `http-custom-header-server-validation` (2026, SEP-2243): `region` mirrored into `Mcp-Param-Region`. */
  @Action('test_custom_headers', { description: 'Tool whose region argument is mirrored into an HTTP header' })
  customHeaders(@Input() input: RegionInput) {
    return `Routed to ${input.region}`;
  }

  /** Pending scenario `json-schema-2020-12` (SEP-1613): the listed inputSchema keeps 2020-12 keywords. */
  @Action('json_schema_2020_12_tool', { description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)' })
  jsonSchema2020(@Input() input: JsonSchema2020Input) {
    return `JSON Schema 2020-12 tool called with: ${JSON.stringify(input)}`;
  }
}

class ElicitationInput {
  @IsString() message!: string;
}

class SamplingInput {
  @IsString() prompt!: string;
}

/** A client's `sampling/createMessage` result, as `readInput` returns it. */
interface SamplingAnswer {
  role: string;
  content: { type: string; text?: string } | Array<{ type: string; text?: string }>;
  model?: string;
}

function textOf(answer: SamplingAnswer): string {
  const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
  return blocks.map((b) => b.text ?? `[${b.type}]`).join(' ');
}

/**
 * Tools that ask the user (or the client) mid-call. On 2025-era sessions (`tools-call-elicitation`,
 * `tools-call-sampling`, `elicitation-sep1034/1330`) the framework sends the request over the
 * session; on 2026-07-28 (`input-required-result-*`) it answers `input_required`.
 */
@ToolProvider()
class ConformanceInteractiveTools {
  /** Scenario `tools-call-elicitation` (2025): the client answers `{ username, email }`. */
  @Interactive()
  @Action('test_elicitation', { description: 'Tests server-initiated elicitation (user input request)' })
  elicitation(@Input() input: ElicitationInput) {
    const username = readInput<string>('username');
    const email = readInput<string>('email');
    if (username === undefined || email === undefined) {
      return requireInput.elicit(input.message, {
        username: ask.string("User's response"),
        email: ask.string("User's email address")
      });
    }
    return `User response: action=accept, content=${JSON.stringify({ username, email })}`;
  }

  /** Scenario `elicitation-sep1034-defaults` (2025): a default on every primitive type. */
  @Interactive()
  @Action('test_elicitation_sep1034_defaults', { description: 'Tests elicitation with default values per SEP-1034' })
  elicitationDefaults() {
    if (readInput('name') === undefined && readInput('age') === undefined) {
      return requireInput.elicit('Please review and update the form fields with defaults', {
        name: ask.string('User name').default('John Doe').optional(),
        age: ask.integer('User age').default(30).optional(),
        score: ask.number('User score').default(95.5).optional(),
        status: ask.enum(['active', 'inactive', 'pending'], 'User status').default('active').optional(),
        verified: ask.boolean('Verification status').default(true).optional()
      });
    }
    const content = Object.fromEntries(['name', 'age', 'score', 'status', 'verified'].map((k) => [k, readInput(k)]));
    return `Elicitation completed: action=accept, content=${JSON.stringify(content)}`;
  }

  /** Scenario `elicitation-sep1330-enums` (2025): plain, titled, legacy `enumNames`, and multi-select enums. */
  @Interactive()
  @Action('test_elicitation_sep1330_enums', { description: 'Tests elicitation with enum schema improvements per SEP-1330' })
  elicitationEnums() {
    const names = ['untitledSingle', 'titledSingle', 'legacyEnum', 'untitledMulti', 'titledMulti'];
    if (names.every((k) => readInput(k) === undefined)) {
      return requireInput.elicit('Please select options from the enum fields', {
        untitledSingle: ask.enum(['option1', 'option2', 'option3'], 'Select one option').optional(),
        titledSingle: ask
          .enum({ value1: 'First Option', value2: 'Second Option', value3: 'Third Option' }, 'Select one option with titles')
          .optional(),
        legacyEnum: ask
          .enum(['opt1', 'opt2', 'opt3'], 'Select one option (legacy)')
          .enumNames(['Option One', 'Option Two', 'Option Three'])
          .optional(),
        untitledMulti: ask.multiSelect(['option1', 'option2', 'option3'], 'Select multiple options').minItems(1).maxItems(3).optional(),
        titledMulti: ask
          .multiSelect({ value1: 'First Choice', value2: 'Second Choice', value3: 'Third Choice' }, 'Select multiple options with titles')
          .minItems(1)
          .maxItems(3)
          .optional()
      });
    }
    const content = Object.fromEntries(names.map((k) => [k, readInput(k)]));
    return `Elicitation completed: action=accept, content=${JSON.stringify(content)}`;
  }

  /**
   * Scenarios `input-required-result-basic-elicitation`, `-result-type`, `-missing-input-response`,
   * `-ignore-extra-params`, `-validate-input` (2026): the request goes under the key `user_name`.
   */
  // answersUpFront: `-ignore-extra-params` sends its answer with the first call (no requestState).
  // A read-only tool may opt in; a destructive one cannot (see the README's security model).
  @Interactive({ answersUpFront: true })
  @Action('test_input_required_result_elicitation', { description: 'MRTR: returns InputRequiredResult with elicitation request' })
  mrtrElicitation() {
    const name = readInput<string>('name');
    if (name === undefined) return requireInput.elicit('What is your name?', { name: ask.string('Your name') }, { key: 'user_name' });
    return `Hello, ${name}!`;
  }

  /** Scenario `input-required-result-request-state` (2026): round 2 must say `state-ok`. */
  @Interactive()
  @Action('test_input_required_result_request_state', { description: 'MRTR: returns InputRequiredResult with requestState' })
  mrtrRequestState() {
    const ok = readInput<boolean>('ok');
    if (ok === undefined)
      return requireInput.elicit('Please confirm', { ok: ask.boolean('Confirm') }, { state: { kind: 'request-state' } });
    const state = readRequestState<{ kind?: string }>();
    return state?.kind === 'request-state' && ok ? 'state-ok: requestState validated' : `requestState not validated (ok=${String(ok)})`;
  }

  /** Scenario `input-required-result-multi-round` (2026): two rounds of input, a new requestState each. */
  @Interactive()
  @Action('test_input_required_result_multi_round', { description: 'MRTR: multi-round InputRequiredResult workflow' })
  mrtrMultiRound() {
    const name = readInput<string>('name');
    if (name === undefined) return requireInput.elicit('Step 1: What is your name?', { name: ask.string('Your name') });
    const color = readInput<string>('color');
    if (color === undefined)
      return requireInput.elicit('Step 2: What is your favorite color?', { color: ask.string('Your favorite color') });
    return `Multi-round complete for ${name} who likes ${color}`;
  }

  /** Scenario `input-required-result-tampered-state` (2026): a tampered requestState is a JSON-RPC -32602. */
  @Interactive()
  @Action('test_input_required_result_tampered_state', { description: 'MRTR: HMAC-signed requestState integrity test' })
  mrtrTamperedState() {
    const ok = readInput<boolean>('ok');
    if (ok === undefined)
      return requireInput.elicit('Please confirm', { ok: ask.boolean('Confirm') }, { key: 'confirm', state: { kind: 'tamper-test' } });
    return readRequestState<{ kind?: string }>()?.kind === 'tamper-test' ? 'integrity-ok: state verified' : 'state not verified';
  }

  /** Scenario `tools-call-sampling` (2025): a real `sampling/createMessage` over the session. */
  @Interactive()
  @Action('test_sampling', { description: 'Tests server-initiated sampling (LLM completion request)' })
  sampling(@Input() input: SamplingInput) {
    const answer = readInput<SamplingAnswer>('llm');
    if (answer === undefined) {
      return requireInput.sample(
        { messages: [{ role: 'user', content: { type: 'text', text: input.prompt } }], maxTokens: 100 },
        { key: 'llm' }
      );
    }
    return `LLM response: ${textOf(answer)}`;
  }

  /** Scenario `input-required-result-basic-sampling` (2026). */
  @Interactive()
  @Action('test_input_required_result_sampling', { description: 'MRTR: returns InputRequiredResult with sampling request' })
  mrtrSampling() {
    const answer = readInput<SamplingAnswer>('capital_question');
    if (answer === undefined) {
      return requireInput.sample(
        { messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 },
        { key: 'capital_question' }
      );
    }
    return `Sampling result: ${textOf(answer)}`;
  }

  /** Scenario `input-required-result-basic-list-roots` (2026). */
  @Interactive()
  @Action('test_input_required_result_list_roots', { description: 'MRTR: returns InputRequiredResult with roots/list request' })
  mrtrListRoots() {
    const roots = readInput<Array<{ uri: string }>>('client_roots');
    if (roots === undefined) return requireInput.roots({ key: 'client_roots' });
    return `Found ${roots.length} root(s): ${roots.map((r) => r.uri).join(', ')}`;
  }

  /** Scenario `input-required-result-multiple-input-requests` (2026): elicitation, sampling and roots in one round. */
  @Interactive()
  @Action('test_input_required_result_multiple_inputs', { description: 'MRTR: returns InputRequiredResult with multiple input requests' })
  mrtrMultipleInputs() {
    const name = readInput<string>('name');
    const greeting = readInput<SamplingAnswer>('greeting');
    const roots = readInput<Array<{ uri: string }>>('client_roots');
    if (name === undefined || greeting === undefined || roots === undefined) {
      return requireInput.all([
        requireInput.elicit('What is your name?', { name: ask.string('Your name') }, { key: 'user_name' }),
        requireInput.sample(
          { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 },
          { key: 'greeting' }
        ),
        requireInput.roots({ key: 'client_roots' })
      ]);
    }
    return `Name: ${name}; Greeting: ${textOf(greeting)}; Roots: ${roots.length}`;
  }

  /**
   * `server-stateless` check `sep-2575-http-server-no-independent-requests-on-stream` (2026): the
   * response stream carries notifications and the result, never a standalone request.
   */
  @Action('test_streaming_elicitation', { description: 'Diagnostic tool validating response progress streams' })
  async *streamingElicitation() {
    yield progress(50, 'halfway');
    return 'Streaming complete';
  }

  /** Scenario `input-required-result-capability-check` (2026): ask only for what the client declared. */
  @Interactive()
  @Action('test_input_required_result_capabilities', { description: 'MRTR: respects client capabilities' })
  mrtrCapabilities(@Ctx() ctx: CallContext) {
    const caps = ctx.clientCapabilities ?? {};
    const wanted: InputRound[] = [];
    if (caps.elicitation && readInput('answer') === undefined) {
      wanted.push(requireInput.elicit('Elicitation request', { answer: ask.string('Answer') }, { key: 'elicit_input' }));
    }
    if (caps.sampling && readInput('sample_input') === undefined) {
      wanted.push(
        requireInput.sample(
          { messages: [{ role: 'user', content: { type: 'text', text: 'Sample request' } }], maxTokens: 50 },
          { key: 'sample_input' }
        )
      );
    }
    if (wanted.length > 0) return requireInput.all(wanted);
    return `capabilities-ok: received ${Object.keys(caps).join(', ')}`;
  }

  /** `server-stateless` checks `sep-2575-server-rejects-undeclared-capability` / `-missing-capability-http-400` (2026). */
  @Action('test_missing_capability', { description: 'Test tool requiring sampling', requires: { sampling: {} } })
  missingCapability() {
    return 'Success';
  }
}

class TemplateVars {
  @IsString() id!: string;
}

/** Resources of scenarios `resources-*` and `sep-2164-resource-not-found`. */
@ToolProvider()
class ConformanceResources {
  @Resource('test://static-text', {
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain'
  })
  staticText() {
    return 'This is the content of the static text resource.';
  }

  @Resource('test://static-binary', {
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png'
  })
  staticBinary() {
    return Buffer.from(TEST_IMAGE_BASE64, 'base64');
  }

  @Resource('test://watched-resource', {
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource that can be subscribed to',
    mimeType: 'text/plain'
  })
  watched() {
    return 'Watched resource content';
  }

  @ResourceTemplate('test://template/{id}/data', {
    name: 'template',
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json'
  })
  template(@Input() vars: TemplateVars) {
    return { id: vars.id, templateTest: true, data: `Data for ID: ${vars.id}` };
  }
}

class PromptArgs {
  @JSONSchema({ description: 'First test argument' }) @IsString() arg1!: string;
  @JSONSchema({ description: 'Second test argument' }) @IsString() arg2!: string;
}

class EmbeddedArgs {
  @JSONSchema({ description: 'URI of the resource to embed' }) @IsString() resourceUri!: string;
}

/** Prompts of scenarios `prompts-*`, `completion-complete` and `input-required-result-non-tool-request`. */
@ToolProvider()
class ConformancePrompts {
  @Prompt('test_simple_prompt', { title: 'Simple Test Prompt', description: 'A simple prompt without arguments' })
  simple() {
    return 'This is a simple prompt for testing.';
  }

  @Prompt('test_prompt_with_arguments', {
    title: 'Prompt With Arguments',
    description: 'A prompt with required arguments',
    complete: { arg1: (value) => ['test1', 'test2', 'testValue1'].filter((v) => v.startsWith(value)) }
  })
  withArguments(@Input() args: PromptArgs) {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @Prompt('test_prompt_with_embedded_resource', {
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource'
  })
  embedded(@Input() args: EmbeddedArgs) {
    return [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' }
        }
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } }
    ];
  }

  @Prompt('test_prompt_with_image', { title: 'Prompt With Image', description: 'A prompt that includes image content' })
  image() {
    return [
      { role: 'user', content: { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } }
    ];
  }

  @Interactive()
  @Prompt('test_input_required_result_prompt', { description: 'MRTR: prompt that requires elicitation input' })
  mrtrPrompt() {
    const context = readInput<string>('context');
    if (context === undefined) {
      return requireInput.elicit('What context should the prompt use?', { context: ask.string('Context') }, { key: 'user_context' });
    }
    return `Prompt with context: ${context}`;
  }
}

/** A tool that comes and goes, for the list-changed checks. */
@ToolProvider()
class DynamicTool {
  @Action('test_dynamic_tool', { description: 'A tool added and removed at run time' })
  dynamic() {
    return 'dynamic';
  }
}

/** A prompt that comes and goes, for the list-changed checks. */
@ToolProvider()
class DynamicPrompt {
  @Prompt('test_dynamic_prompt', { description: 'A prompt added and removed at run time' })
  dynamic() {
    return 'dynamic';
  }
}

/** `server-stateless` checks `sep-2575-server-sends-*-list-changed-on-subscription` (2026): change the lists at run time. */
@ToolProvider()
class ConformanceTriggers {
  constructor(@inject(FUSION_APP) private readonly app: FusionApp) {}

  @Action('test_trigger_tool_change', { description: 'Adds or removes a tool (list_changed diagnostic)' })
  triggerToolChange() {
    this.toggle(DynamicTool);
    return 'Mutation triggered';
  }

  @Action('test_trigger_prompt_change', { description: 'Adds or removes a prompt (list_changed diagnostic)' })
  triggerPromptChange() {
    this.toggle(DynamicPrompt);
    return 'Mutation triggered';
  }

  private toggle(toolClass: new () => unknown): void {
    if (this.app.hasTools(toolClass)) this.app.removeTools(toolClass);
    else this.app.addTools(toolClass);
  }
}

/** Logging tools of scenarios `tools-call-with-logging` (2025) and `server-stateless` (2026). */
@ToolProvider()
class ConformanceLogging {
  @Action('test_tool_with_logging', { description: 'Tests tool that emits log messages during execution' })
  async withLogging(@Ctx() ctx: CallContext) {
    ctx.log.info('Tool execution started');
    await sleep(50, ctx.signal);
    ctx.log.info('Tool processing data');
    await sleep(50, ctx.signal);
    ctx.log.info('Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  @Action('test_logging_tool', { description: 'Diagnostic logging validator tool' })
  logging(@Ctx() ctx: CallContext) {
    ctx.log.info('Logging evaluated');
    return 'Logging evaluated';
  }
}

class GreetInput {
  @IsString() name!: string;
}

class DeleteInput {
  @IsOptional() @IsString() filename?: string;
}

class SlowComputeInput {
  @IsInt() @Min(0) @Max(600) seconds!: number;
  @IsOptional() @IsString() label?: string;
}

/**
 * The fixtures of the tasks extension scenarios (`tasks-*`, 0.2.0-alpha.12, SEP-2663). A
 * task-capable call becomes a task once it waits on something (here a timer); what it asks
 * before its first wait is asked in the request (MRTR), what it asks later through the task.
 */
@ToolProvider()
class ConformanceTaskTools {
  @Action('greet', { description: 'Sync-only greeting' })
  greet(@Input() input: GreetInput) {
    return `Hello, ${input.name}!`;
  }

  @Action('slow_compute', { description: 'Sleeps `seconds` seconds, then answers (task-supporting)', task: 'optional' })
  async slowCompute(@Input() input: SlowComputeInput, @Ctx() ctx: CallContext) {
    if (input.seconds > 0) await sleep(input.seconds * 1000, ctx.signal);
    return `Computed ${input.label ?? 'result'} after ${input.seconds}s`;
  }

  @Action('failing_job', { description: 'Fails with a tool error after a moment (task required)', task: 'required' })
  async failingJob(@Ctx() ctx: CallContext) {
    await sleep(300, ctx.signal);
    throw new ToolError('The job failed: simulated tool execution error');
  }

  @Action('protocol_error_job', { description: 'Fails with a protocol error (task-supporting)', task: 'optional' })
  async protocolErrorJob(@Ctx() ctx: CallContext) {
    await sleep(100, ctx.signal);
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'Simulated protocol-level failure');
  }

  @Interactive()
  @Action('confirm_delete', { description: 'Asks to confirm a deletion, inside the task', task: 'optional' })
  async confirmDelete(@Input() input: DeleteInput, @Ctx() ctx: CallContext) {
    await sleep(10, ctx.signal);
    const what = input.filename ?? 'the item';
    const confirm = readInput<boolean>('confirm');
    if (confirm === undefined) return requireInput.elicit(`Delete ${what}?`, { confirm: ask.boolean('Confirm the deletion') });
    return confirm ? `Deleted ${what}` : 'Deletion cancelled';
  }

  @Interactive()
  @Action('multi_input', { description: 'Asks two questions at once, inside the task', task: 'optional' })
  async multiInput(@Ctx() ctx: CallContext) {
    await sleep(10, ctx.signal);
    const name = readInput<string>('name');
    const confirm = readInput<boolean>('confirm');
    if (name === undefined || confirm === undefined) {
      return requireInput.all([
        requireInput.elicit('Your name?', { name: ask.string('Your name') }, { key: 'name_input' }),
        requireInput.elicit('Proceed?', { confirm: ask.boolean('Confirm') }, { key: 'confirm_input' })
      ]);
    }
    return `Answers: ${name}, ${String(confirm)}`;
  }

  @Interactive()
  @Action('test_tool_with_task', { description: 'Asks a name in the request (MRTR), then works as a task', task: 'required' })
  async withTask(@Ctx() ctx: CallContext) {
    const name = readInput<string>('name');
    if (name === undefined) return requireInput.elicit('What is your name?', { name: ask.string('Your name') }, { key: 'user_name' });
    await sleep(50, ctx.signal);
    return `Hello, ${name}! Your task is done.`;
  }
}

/** The conformance server's app (not listening): what `main` serves, and what tests fuzz in-process. */
export function createConformanceApp(): FusionApp {
  return FusionApp.create({
    name: 'mcpfusion-conformance-server',
    version: '1.0.0',
    tools: [
      ConformanceTools,
      ConformanceInteractiveTools,
      ConformanceResources,
      ConformancePrompts,
      ConformanceLogging,
      ConformanceTriggers,
      ConformanceTaskTools
    ],
    // A per-process key for the signed continuation state (one process: nothing to share).
    stateKey: process.env.FUSION_STATE_KEY ?? randomBytes(32),
    logger: (message) => process.stderr.write(`[conformance-server] ${message}\n`)
  });
}

async function main(): Promise<void> {
  const app = createConformanceApp();
  const port = Number(process.env.PORT ?? 0);
  // The suite is one caller (one address, no token) that opens a session per scenario, dozens in a
  // run: the per-caller session quota (20 by default) would refuse it, so this server allows more.
  const { url } = await app.listen({
    transport: 'http',
    port,
    host: '127.0.0.1',
    handleSignals: false,
    sessions: { maxSessionsPerCaller: 1000 }
  });
  process.stderr.write(`listening ${url?.href}\n`);
  const stop = (): void => {
    void app.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `conformance server failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`
    );
    process.exit(1);
  });
}
