import 'reflect-metadata';
import { IsIn, IsObject, IsOptional, IsString } from 'class-validator';
import { Action, Ctx, FusionApp, Input, JSONSchema, ToolProvider, progress, type CallContext } from '../../src';

/**
 * The conformance server: the tools of the official MCP conformance suite
 * (`@modelcontextprotocol/conformance`, `src/scenarios/server/*.ts` and the reference
 * `examples/servers/typescript/everything-server.ts`) that the framework can serve today,
 * built with the public API only. Started by `scripts/conformance/run.sh`.
 *
 * What the suite expects and the framework cannot do yet (resources, prompts, completions,
 * logging, sampling, elicitation, MRTR, …) is listed in `scripts/conformance/GAPS.md`; the
 * tools for it are deliberately absent here rather than faked.
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

  /** Pending scenario `json-schema-2020-12` (SEP-1613): the listed inputSchema keeps 2020-12 keywords. */
  @Action('json_schema_2020_12_tool', { description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)' })
  jsonSchema2020(@Input() input: JsonSchema2020Input) {
    return `JSON Schema 2020-12 tool called with: ${JSON.stringify(input)}`;
  }
}

async function main(): Promise<void> {
  const app = FusionApp.create({
    name: 'mcpfusion-conformance-server',
    version: '1.0.0',
    tools: [ConformanceTools],
    logger: (message) => process.stderr.write(`[conformance-server] ${message}\n`)
  });
  const port = Number(process.env.PORT ?? 0);
  const { url } = await app.listen({ transport: 'http', port, host: '127.0.0.1', handleSignals: false });
  process.stderr.write(`listening ${url?.href}\n`);
  const stop = (): void => {
    void app.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`conformance server failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
