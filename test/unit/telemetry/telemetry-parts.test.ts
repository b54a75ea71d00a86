import { TraceFlags } from '@opentelemetry/api';
import { AppClosedError, CancelledError, TimeoutError, ToolError } from '../../../src/errors';
import { META_GETTER, carriesTraceContext } from '../../../src/telemetry/meta-carrier';
import { cancellationSource, errorFacts } from '../../../src/telemetry/outcome';
import { referencedSpan, spanReference } from '../../../src/telemetry/span-reference';
import { FRAMEWORK_VERSION } from '../../../src/telemetry/version';

describe('span references (what requestState and a task record carry)', () => {
  const context = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

  it('round-trips a valid span context as a W3C traceparent', () => {
    const reference = spanReference(context)!;
    expect(reference).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(referencedSpan(reference)).toEqual({ ...context, isRemote: true });
  });

  it('makes no reference of an invalid context, and reads none from anything but a strict traceparent', () => {
    expect(spanReference({ ...context, traceId: '0'.repeat(32) })).toBeUndefined();
    for (const bad of [undefined, 42, {}, '', '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01', ' 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01']) {
      expect(referencedSpan(bad)).toBeUndefined();
    }
  });
});

describe('the _meta carrier (untrusted)', () => {
  it('reads own string values of bounded length only', () => {
    const meta = Object.assign(Object.create({ traceparent: 'inherited' }) as Record<string, unknown>, { tracestate: 'a=b', baggage: 7 });
    expect(META_GETTER.get(meta, 'traceparent')).toBeUndefined();
    expect(META_GETTER.get(meta, 'tracestate')).toBe('a=b');
    expect(META_GETTER.get(meta, 'baggage')).toBeUndefined();
    expect(META_GETTER.get({ traceparent: 'x'.repeat(8193) }, 'traceparent')).toBeUndefined();
    expect(META_GETTER.get(undefined, 'traceparent')).toBeUndefined();
  });

  it('says whether there is anything to extract', () => {
    expect(carriesTraceContext(undefined)).toBe(false);
    expect(carriesTraceContext({ progressToken: 1 })).toBe(false);
    expect(carriesTraceContext({ traceparent: 'x' })).toBe(true);
    expect(carriesTraceContext({ baggage: 'k=v' })).toBe(true);
  });
});

describe('outcomes as the conventions record them', () => {
  it('a JSON-RPC error is its code; an isError result is tool_error; success is nothing', () => {
    expect(errorFacts({ error: { code: -32602, message: 'Unknown tool' } })).toEqual({ type: '-32602', code: '-32602', message: 'Unknown tool' });
    expect(errorFacts({ result: { isError: true, content: [] } })).toEqual({ type: 'tool_error' });
    expect(errorFacts({ result: { content: [] } })).toBeUndefined();
    expect(errorFacts({ error: new RangeError('x') })).toMatchObject({ type: 'RangeError' });
    expect(errorFacts({ error: 'a string' })).toMatchObject({ type: '_OTHER' });
  });

  it('tells the cancellation sources apart', () => {
    expect(cancellationSource(new TimeoutError('Tool x', 5), 'request', 'modern')).toBe('timeout');
    expect(cancellationSource(new AppClosedError(), 'request', 'legacy')).toBe('shutdown');
    expect(cancellationSource(CancelledError.of('gone'), 'task', 'modern')).toBe('task_cancel');
    expect(cancellationSource(CancelledError.of('the user pressed Ctrl-C'), 'request', 'legacy')).toBe('client_cancel');
    expect(cancellationSource(CancelledError.of(new Error('Connection closed')), 'request', 'legacy')).toBe('stream_closed');
    const aborted = new AbortController();
    aborted.abort();
    expect(cancellationSource(CancelledError.of(aborted.signal.reason), 'request', 'modern')).toBe('stream_closed');
    expect(cancellationSource(CancelledError.of(aborted.signal.reason), 'request', 'legacy')).toBe('client_cancel');
    expect(cancellationSource(new ToolError('no'), 'request', 'modern')).toBeUndefined();
  });
});

test("the instrumentation scope's version is the package's", () => {
  expect(FRAMEWORK_VERSION).toBe((require('../../../package.json') as { version: string }).version);
});

describe('idle telemetry (nobody listens)', () => {
  it('is idle with no provider registered, and follows a tracer provider registered later', () => {
    const { Telemetry } = require('../../../src/telemetry') as typeof import('../../../src/telemetry');
    const { trace } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
    const { BasicTracerProvider } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
    const telemetry = new Telemetry({}, FRAMEWORK_VERSION, undefined, () => undefined);
    expect(telemetry.idle).toBe(true);
    expect(telemetry.start({ method: 'tools/list' })).toBeUndefined();
    trace.setGlobalTracerProvider(new BasicTracerProvider());
    try {
      expect(telemetry.idle).toBe(false);
      expect(telemetry.start({ method: 'tools/list' })?.recording).toBe(true);
    } finally {
      trace.disable();
    }
    expect(new Telemetry({ tracerProvider: new BasicTracerProvider() }, FRAMEWORK_VERSION, undefined, () => undefined).idle).toBe(false);
  });
});
