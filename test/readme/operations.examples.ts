/*
 * The snippets of docs/keyed-mutations.md and docs/observability.md, as the programs they are
 * part of (test/readme/readme.test.ts checks each block appears here verbatim).
 */
import 'reflect-metadata';
import { IsInt, Min } from 'class-validator';
import { Ctx, FusionApp, Input, Interactive, Mutation, ToolProvider, type CallContext } from '@mcpfusion/core';
import { NodeSDK } from '@opentelemetry/sdk-node';

export class RefundRequest {
  @IsInt() @Min(1) id!: number;
}

// docs/keyed-mutations.md: what each mutation serializes on.
@ToolProvider()
export class BillingTools {
  refunded: Array<{ id: number; fencingToken: number | undefined }> = [];

  @Interactive({ exactlyOnce: true })
  @Mutation('billing.refund', {
    description: 'Refund an invoice after the user confirms',
    serializeOn: (request: RefundRequest) => `invoice:${request.id}`
  })
  refund(@Input() request: RefundRequest, @Ctx() ctx: CallContext) {
    // The grant of this invoice's key: its fencing token goes into the write (a fenced UPDATE).
    const lock = ctx.lock;
    this.refunded.push({ id: request.id, fencingToken: lock?.fencingToken });
    return `refunded ${request.id}`;
  }

  @Mutation('reports.rebuild', { description: 'Rebuild every monthly aggregate' }) // serializeOn: 'app' (the default)
  rebuild() {
    return 'rebuilt';
  }
}

// docs/observability.md: the OpenTelemetry SDK registered before the app is created.
export async function observedServer(): Promise<void> {
  const sdk = new NodeSDK(); // reads OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, …
  sdk.start();
  const app = FusionApp.create({ tools: [BillingTools] });
  // …and on shutdown, after app.close(): await sdk.shutdown() (flushes what is still held).
  await app.close();
  await sdk.shutdown();
}
