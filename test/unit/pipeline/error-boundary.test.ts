import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { CallAbort } from '../../../src/concurrency/call-abort';
import {
  CalledToolNotFoundError,
  AppClosedError,
  CancelledError,
  ConfigurationError,
  ElicitationUnsupportedError,
  ErrorCode,
  FusionError,
  InputDeclinedError,
  InputRoundsExceededError,
  InsufficientScopeError,
  InvalidInputError,
  InvalidParamsError,
  InvalidProgressError,
  InvalidRequestStateError,
  LockKeyError,
  MaskedError,
  MissingCapabilityError,
  NextCalledTwiceError,
  NotInteractiveError,
  OutputMismatchError,
  PresentationError,
  NothingToCompleteError,
  ServerBusyError,
  TaskInterruptedError,
  TaskLimitError,
  TaskNotFoundError,
  TimeoutError,
  ToolError,
  UpstreamError,
  UnknownPromptError,
  UnknownResourceError,
  UnknownToolError,
  type ErrorCodeValue
} from '../../../src/errors';
import type { CallState } from '../../../src/pipeline/call-state';
import { compose, type StepNext } from '../../../src/pipeline/compose';
import { ErrorBoundary, jsonRpcErrorObject } from '../../../src/pipeline/error-boundary';
import { errorBoundaryStep } from '../../../src/pipeline/steps/error-boundary.step';
import type { CallKind, CallMode } from '../../../src/types/core';

/**
 * The error boundary (src/pipeline/error-boundary.ts) decides what every failure becomes on the
 * wire, by kind (tool, resource, prompt, completion) and by the call's mode (request, task):
 *
 * - `result`: an `isError` tool result in a tool's request; in a tool's task, the task completes
 *   with that result (`resultType: 'complete'`); the other kinds have no error results and
 *   answer `other`, a JSON-RPC error code.
 * - a number: the JSON-RPC error every kind answers with (protocol-level codes); in a tool's
 *   task, the task fails with that error object.
 */

const INVALID_PARAMS = ProtocolErrorCode.InvalidParams; // -32602
const INVALID_REQUEST = ProtocolErrorCode.InvalidRequest; // -32600
const INTERNAL = ProtocolErrorCode.InternalError; // -32603
const MISSING_CAPABILITY = ProtocolErrorCode.MissingRequiredClientCapability; // -32021

interface Row {
  /** A real error of that code, as the framework raises it. */
  readonly error: () => FusionError;
  /** A tool's answer: an `isError` result, or a JSON-RPC error code. */
  readonly tool: 'result' | number;
  /** The JSON-RPC error code of resources, prompts and completions. */
  readonly other: number;
  /** The JSON-RPC error's `data`, where it has one. */
  readonly data?: unknown;
}

const CAPABILITIES = { sampling: {} };

/** Every ErrorCode, with the wire form the boundary gives it. */
const TABLE: Record<ErrorCodeValue, Row> = {
  [ErrorCode.CONFIGURATION]: { error: () => new ConfigurationError('Bad option x'), tool: 'result', other: INTERNAL },
  [ErrorCode.INVALID_INPUT]: {
    error: () => new InvalidInputError('subject', [{ path: 'id', message: 'id must be digits' }]),
    tool: 'result',
    other: INVALID_PARAMS
  },
  [ErrorCode.UNKNOWN_TOOL]: { error: () => new UnknownToolError('nope'), tool: INVALID_PARAMS, other: INVALID_PARAMS },
  [ErrorCode.CALLED_TOOL_NOT_FOUND]: { error: () => new CalledToolNotFoundError('nope', 'search_tools'), tool: 'result', other: INTERNAL },
  [ErrorCode.UNKNOWN_PROMPT]: { error: () => new UnknownPromptError('nope'), tool: INVALID_PARAMS, other: INVALID_PARAMS },
  [ErrorCode.UNKNOWN_RESOURCE]: {
    error: () => new UnknownResourceError('demo://nope'),
    tool: INVALID_PARAMS,
    other: INVALID_PARAMS,
    data: { uri: 'demo://nope' }
  },
  [ErrorCode.UNKNOWN_COMPLETION_REF]: {
    error: () => new NothingToCompleteError({ type: 'ref/prompt', name: 'nope' }),
    tool: INVALID_PARAMS,
    other: INVALID_PARAMS
  },
  [ErrorCode.TASK_NOT_FOUND]: { error: () => new TaskNotFoundError(), tool: INVALID_PARAMS, other: INVALID_PARAMS },
  [ErrorCode.INVALID_PARAMS]: {
    error: () => new InvalidParamsError('Invalid params: taskId'),
    tool: INVALID_PARAMS,
    other: INVALID_PARAMS
  },
  [ErrorCode.TASK_LIMIT]: { error: () => new TaskLimitError(3), tool: 'result', other: INTERNAL },
  [ErrorCode.TASK_INTERRUPTED]: { error: () => new TaskInterruptedError('The server shut down'), tool: 'result', other: INTERNAL },
  [ErrorCode.SERVER_BUSY]: { error: () => new ServerBusyError(8), tool: 'result', other: INTERNAL },
  [ErrorCode.CANCELLED]: { error: () => new CancelledError('the client gave up'), tool: 'result', other: INTERNAL },
  [ErrorCode.TIMEOUT]: { error: () => new TimeoutError('slow', 50), tool: 'result', other: INTERNAL },
  [ErrorCode.NEXT_CALLED_TWICE]: { error: () => new NextCalledTwiceError(), tool: 'result', other: INTERNAL },
  [ErrorCode.INVALID_PROGRESS]: { error: () => new InvalidProgressError(101), tool: 'result', other: INTERNAL },
  [ErrorCode.ELICITATION_UNSUPPORTED]: {
    error: () => new ElicitationUnsupportedError('the client declared no elicitation'),
    tool: 'result',
    other: INVALID_REQUEST
  },
  [ErrorCode.LOCK_KEY]: { error: () => new LockKeyError('billing.refund', 'its key function threw'), tool: 'result', other: INTERNAL },
  [ErrorCode.APP_CLOSED]: { error: () => new AppClosedError(), tool: 'result', other: INTERNAL },
  [ErrorCode.INVALID_REQUEST_STATE]: { error: () => new InvalidRequestStateError('expired'), tool: INVALID_PARAMS, other: INVALID_PARAMS },
  [ErrorCode.INPUT_ROUNDS_EXCEEDED]: { error: () => new InputRoundsExceededError('Tool t', 3), tool: 'result', other: INVALID_REQUEST },
  [ErrorCode.MISSING_CLIENT_CAPABILITY]: {
    error: () => new MissingCapabilityError('needs.sampling', CAPABILITIES),
    tool: MISSING_CAPABILITY,
    other: MISSING_CAPABILITY,
    data: { requiredCapabilities: CAPABILITIES }
  },
  [ErrorCode.NOT_INTERACTIVE]: { error: () => new NotInteractiveError('Tool t'), tool: 'result', other: INVALID_REQUEST },
  [ErrorCode.INPUT_DECLINED]: { error: () => new InputDeclinedError('Refund cancelled'), tool: 'result', other: INVALID_REQUEST },
  [ErrorCode.INSUFFICIENT_SCOPE]: {
    error: () => new InsufficientScopeError('Tool t', ['billing:write'], ['billing:write']),
    tool: 'result',
    other: INVALID_REQUEST
  },
  [ErrorCode.PRESENTATION_FAILED]: { error: () => new PresentationError('billing.refund', 10), tool: 'result', other: INTERNAL },
  [ErrorCode.OUTPUT_MISMATCH]: {
    error: () => new OutputMismatchError('billing.refund', 'InvoiceView', 'a string ("Refund cancelled")'),
    tool: 'result',
    other: INTERNAL
  },
  [ErrorCode.TOOL_ERROR]: { error: () => new ToolError('Invoice 7 not found: call billing.list'), tool: 'result', other: INTERNAL },
  [ErrorCode.UPSTREAM_FAILED]: {
    error: () => new UpstreamError('The upstream MCP server node hostile.js is unavailable: the connection closed.'),
    tool: 'result',
    other: INTERNAL
  },
  [ErrorCode.INTERNAL]: { error: () => new MaskedError('0123abcd'), tool: 'result', other: INTERNAL }
};

const KINDS: readonly CallKind[] = ['tool', 'resource', 'prompt', 'completion'];
const MODES: readonly CallMode[] = ['request', 'task'];
const SUBJECT = 'subject';

/** Every (code, kind, mode) the boundary answers, as jest rows. */
const CASES = (Object.entries(TABLE) as [ErrorCodeValue, Row][]).flatMap(([code, row]) =>
  KINDS.flatMap((kind) => MODES.map((mode) => [code, kind, mode, row] as const))
);

/** What `fail` did: a value it returned, or the error it threw. */
function outcomeOf(boundary: ErrorBoundary, kind: CallKind, mode: CallMode, error: unknown): { returned?: unknown; thrown?: unknown } {
  try {
    return { returned: boundary.fail(kind, SUBJECT, mode, error) };
  } catch (thrown) {
    return { thrown };
  }
}

const errorResult = (text: string) => ({ isError: true, content: [{ type: 'text', text }] });

/** The message a JSON-RPC error carries for an error of this row (the error's own, except invalid input of non-tools). */
function protocolMessage(error: FusionError, kind: CallKind): string {
  if (error instanceof InvalidInputError && kind !== 'tool') {
    return kind === 'resource'
      ? `Invalid URI ${SUBJECT}: id: id must be digits`
      : `Invalid arguments for ${kind} ${SUBJECT}: id: id must be digits`;
  }
  return error.message;
}

describe('ErrorBoundary.fail: every ErrorCode, every kind, both modes', () => {
  it('the table has a row for every ErrorCode (a new code needs its wire form decided here)', () => {
    expect(Object.keys(TABLE).sort()).toEqual(Object.values(ErrorCode).sort());
    for (const [code, row] of Object.entries(TABLE)) expect(row.error().code).toBe(code);
  });

  it.each(CASES)('%s, %s in %s mode', (_code, kind, mode, row) => {
    const log = jest.fn();
    const error = row.error();
    // Masking changes nothing for the framework's own errors: both settings give the same answer, and nothing is
    // logged but an output mismatch (a developer's bug, logged once per call whatever the setting).
    for (const mask of [false, true]) {
      const { returned, thrown } = outcomeOf(new ErrorBoundary(mask, log), kind, mode, error);
      const wire = kind === 'tool' ? row.tool : row.other;
      if (wire === 'result') {
        expect(thrown).toBeUndefined();
        if (kind === 'tool' && mode === 'task' && error instanceof CancelledError) {
          // A task's run stopped by a cancel is cancelled, not completed with an error (its status agrees with what happened).
          expect(returned).toEqual({ cancelled: error.message });
          continue;
        }
        expect(returned).toEqual(
          mode === 'task' ? { value: { ...errorResult(error.message), resultType: 'complete' } } : errorResult(error.message)
        );
        continue;
      }
      const expected = { code: wire, message: protocolMessage(error, kind), ...(row.data !== undefined ? { data: row.data } : {}) };
      if (kind === 'tool' && mode === 'task') {
        // A protocol-level failure of a task's round fails the task with the JSON-RPC error object.
        expect(thrown).toBeUndefined();
        expect(returned).toEqual({ error: expected });
      } else {
        // Resources, prompts and completions have no task mode of their own: always a thrown JSON-RPC error.
        expect(returned).toBeUndefined();
        expect(thrown).toBeInstanceOf(ProtocolError);
        expect(jsonRpcErrorObject(thrown as ProtocolError)).toEqual(expected);
      }
    }
    if (error instanceof OutputMismatchError) {
      expect(log).toHaveBeenCalledTimes(2);
      expect(log.mock.calls[0][0]).toMatch(new RegExp(`^${kind} ${SUBJECT} failed: OutputMismatchError: Tool billing\\.refund declares`));
      expect(log.mock.calls[0][0]).toContain('\n    at ');
    } else {
      expect(log).not.toHaveBeenCalled();
    }
  });
});

describe('ErrorBoundary: the special forms', () => {
  const boundary = new ErrorBoundary(false, () => undefined);

  it('MissingCapabilityError is -32021 with data.requiredCapabilities, for every kind', () => {
    for (const kind of KINDS) {
      const error = boundary.protocolError(new MissingCapabilityError('t', { elicitation: { form: {} }, sampling: {} }), kind, SUBJECT);
      expect(error.code).toBe(-32021);
      expect(error.data).toEqual({ requiredCapabilities: { elicitation: { form: {} }, sampling: {} } });
      expect(error.message).toBe('Tool t needs client capabilities the client did not declare: elicitation, sampling.');
    }
  });

  it('UnknownResourceError is -32602 with data.uri (the 2026-07-28 resources/read miss)', () => {
    const error = boundary.protocolError(new UnknownResourceError('demo://items/9'), 'resource', 'demo://items/9');
    expect(jsonRpcErrorObject(error)).toEqual({
      code: -32602,
      message: 'Resource not found: demo://items/9',
      data: { uri: 'demo://items/9' }
    });
  });

  it('InvalidInputError of a non-tool is -32602 naming what was asked for and every violation', () => {
    const error = new InvalidInputError('ignored', [
      { path: 'id', message: 'id must be digits' },
      { path: 'name', message: 'name should not be empty' }
    ]);
    expect(boundary.protocolError(error, 'resource', 'demo://items/x').message).toBe(
      'Invalid URI demo://items/x: id: id must be digits; name: name should not be empty'
    );
    expect(boundary.protocolError(error, 'prompt', 'greeting').message).toBe(
      'Invalid arguments for prompt greeting: id: id must be digits; name: name should not be empty'
    );
    expect(boundary.protocolError(error, 'completion', 'greeting').message).toBe(
      'Invalid arguments for completion greeting: id: id must be digits; name: name should not be empty'
    );
  });

  // A violation of the arguments as a whole has an empty path (src/schema/input-validator.ts gives one when a constraint throws).
  it('a violation of the arguments as a whole is named "(arguments)" for non-tools too, as for tools', () => {
    const error = new InvalidInputError('greeting', [{ path: '', message: 'the arguments could not be validated: boom' }]);
    expect(error.message).toBe('Invalid arguments for tool greeting:\n- (arguments): the arguments could not be validated: boom');
    expect(boundary.protocolError(error, 'prompt', 'greeting').message).toBe(
      'Invalid arguments for prompt greeting: (arguments): the arguments could not be validated: boom'
    );
  });

  it("InvalidInputError of a tool is an isError result listing the violations (the tool's own message)", () => {
    const error = new InvalidInputError('billing.refund', [{ path: 'amount', message: 'amount must not be less than 1' }]);
    expect(boundary.fail('tool', 'billing.refund', 'request', error)).toEqual(
      errorResult('Invalid arguments for tool billing.refund:\n- amount: amount must not be less than 1')
    );
  });

  it('a ProtocolError thrown by a handler passes as it is: the same instance in a request, its error object in a task', () => {
    const error = new ProtocolError(ProtocolErrorCode.InternalError, 'Upstream protocol failure', { upstream: 'x' });
    for (const kind of KINDS) expect(outcomeOf(boundary, kind, 'request', error).thrown).toBe(error);
    expect(boundary.fail('tool', SUBJECT, 'task', error)).toEqual({
      error: { code: -32603, message: 'Upstream protocol failure', data: { upstream: 'x' } }
    });
  });

  it('jsonRpcErrorObject carries data only when the error has some', () => {
    expect(jsonRpcErrorObject(new ProtocolError(-32602, 'no data'))).toEqual({ code: -32602, message: 'no data' });
    expect(jsonRpcErrorObject(new ProtocolError(-32602, 'no data'))).not.toHaveProperty('data');
    expect(jsonRpcErrorObject(new ProtocolError(-32602, 'with', null))).toEqual({ code: -32602, message: 'with', data: null });
  });

  it('taskResult: a result becomes the task outcome with resultType complete; a resultType it has is kept', () => {
    expect(boundary.taskResult({ content: [{ type: 'text', text: 'ok' }] })).toEqual({
      value: { content: [{ type: 'text', text: 'ok' }], resultType: 'complete' }
    });
    const asked = { resultType: 'input_required', inputRequests: { a: {} }, requestState: 's' };
    expect(boundary.taskResult(asked)).toEqual({ value: asked });
  });
});

describe('ErrorBoundary: unexpected exceptions', () => {
  const UNEXPECTED = () => new Error('connection to db-7 refused (password=hunter2)');
  const MASKED = /^Internal error \(reference ([0-9a-f]{8})\)\. The server's log has the details\.$/;

  it('without masking: the message as thrown (never a stack); a task fails with -32603', () => {
    const log = jest.fn();
    const boundary = new ErrorBoundary(false, log);
    expect(boundary.fail('tool', 'db.query', 'request', UNEXPECTED())).toEqual(
      errorResult('connection to db-7 refused (password=hunter2)')
    );
    expect(boundary.fail('tool', 'db.query', 'task', UNEXPECTED())).toEqual({
      error: { code: -32603, message: 'connection to db-7 refused (password=hunter2)' }
    });
    for (const kind of ['resource', 'prompt', 'completion'] as const) {
      for (const mode of MODES) {
        const { thrown } = outcomeOf(boundary, kind, mode, UNEXPECTED());
        expect(jsonRpcErrorObject(thrown as ProtocolError)).toEqual({
          code: -32603,
          message: 'connection to db-7 refused (password=hunter2)'
        });
      }
    }
    // Something thrown that is not an Error: its string.
    expect(boundary.fail('tool', 'db.query', 'request', 'plain string')).toEqual(errorResult('plain string'));
    expect(boundary.fail('tool', 'db.query', 'task', 42)).toEqual({ error: { code: -32603, message: '42' } });
    // Each is logged once, with its stack: a developer's bug is never told to the client only.
    expect(log).toHaveBeenCalledTimes(10);
    expect(log.mock.calls[0][0]).toMatch(
      /^tool db\.query failed with an unexpected exception \(sent to the client as thrown\): Error: connection to db-7 refused[^]*\n\s+at /
    );
    expect(log.mock.calls[9][0]).toBe('tool db.query failed with an unexpected exception (sent to the client as thrown): 42');
  });

  it("names the call's JSON-RPC id and its task when it has them", () => {
    const log = jest.fn();
    const boundary = new ErrorBoundary(false, log);
    boundary.fail('tool', 'db.query', 'request', UNEXPECTED(), { requestId: 7 });
    boundary.fail('tool', 'db.query', 'task', UNEXPECTED(), { requestId: 'r-8', taskId: 'T1' });
    boundary.fail('tool', 'db.query', 'request', new OutputMismatchError('db.query', 'Row', 'a string ("x")'), { requestId: 9 });
    expect(log.mock.calls.map(([m]) => (m as string).split(':')[0])).toEqual([
      'tool db.query failed (call 7) with an unexpected exception (sent to the client as thrown)',
      'tool db.query failed (call "r-8", task T1) with an unexpected exception (sent to the client as thrown)',
      'tool db.query failed (call 9)'
    ]);
  });

  it.each(KINDS.flatMap((kind) => MODES.map((mode) => [kind, mode] as const)))(
    'with masking, %s in %s mode: "Internal error (reference …)", the original logged once under the same reference',
    (kind, mode) => {
      const log = jest.fn();
      const boundary = new ErrorBoundary(true, log);
      const error = UNEXPECTED();
      const { returned, thrown } = outcomeOf(boundary, kind, mode, error);
      let message: string;
      if (kind === 'tool' && mode === 'request') {
        const result = returned as ReturnType<typeof errorResult>;
        expect(result.isError).toBe(true);
        message = result.content[0].text;
      } else if (kind === 'tool') {
        const { error: object } = returned as { error: { code: number; message: string } };
        expect(object.code).toBe(-32603);
        expect(object).not.toHaveProperty('data');
        message = object.message;
      } else {
        expect(thrown).toBeInstanceOf(ProtocolError);
        expect((thrown as ProtocolError).code).toBe(-32603);
        message = (thrown as ProtocolError).message;
      }
      expect(message).toMatch(MASKED);
      expect(message).not.toContain('hunter2');
      const reference = MASKED.exec(message)![1];
      expect(log).toHaveBeenCalledTimes(1);
      const logged = log.mock.calls[0][0] as string;
      expect(
        logged.startsWith(`${kind} ${SUBJECT} failed (reference ${reference}): Error: connection to db-7 refused (password=hunter2)`)
      ).toBe(true);
      expect(logged).toContain(error.stack!.split('\n')[1].trim()); // the stack goes to the log
    }
  );

  it('with masking: every call gets its own reference; something thrown that is not an Error is logged as its string', () => {
    const log = jest.fn();
    const boundary = new ErrorBoundary(true, log);
    const first = boundary.fail('tool', 'a', 'request', 'secret string') as ReturnType<typeof errorResult>;
    const second = boundary.fail('tool', 'a', 'request', 'secret string') as ReturnType<typeof errorResult>;
    expect(first.content[0].text).toMatch(MASKED);
    expect(first.content[0].text).not.toBe(second.content[0].text);
    expect(log.mock.calls.map(([m]) => (m as string).replace(/reference [0-9a-f]{8}/, 'reference R'))).toEqual([
      'tool a failed (reference R): secret string',
      'tool a failed (reference R): secret string'
    ]);
  });

  it('with masking: a ToolError, any other FusionError and a ProtocolError are never masked nor logged', () => {
    const log = jest.fn();
    const boundary = new ErrorBoundary(true, log);
    expect(boundary.fail('tool', 't', 'request', new ToolError('Invoice 7 not found'))).toEqual(errorResult('Invoice 7 not found'));
    expect(boundary.fail('tool', 't', 'task', new TimeoutError('t', 10))).toEqual({
      value: { ...errorResult('Tool t timed out after 10 ms and was stopped.'), resultType: 'complete' }
    });
    const protocol = new ProtocolError(-32602, 'bad cursor');
    expect(outcomeOf(boundary, 'tool', 'request', protocol).thrown).toBe(protocol);
    expect(boundary.protocolError(protocol, 'prompt', 'p')).toBe(protocol);
    expect(boundary.protocolError(new ToolError('not here'), 'resource', 'demo://x').message).toBe('not here');
    expect(log).not.toHaveBeenCalled();
  });
});

describe('the error-boundary step', () => {
  /** The least of a call's state the step and compose read. */
  function stateOf(mode: CallMode = 'request', signal = new AbortController().signal): CallState {
    return {
      aborter: new CallAbort(signal),
      mode,
      subject: 'demo://x',
      request: { subject: 'demo://x', requestId: 7 },
      end: (answer: unknown) => answer
    } as unknown as CallState;
  }
  const boundary = new ErrorBoundary(false, () => undefined);

  it('is named error-boundary and passes a request-mode value through unchanged', async () => {
    const step = errorBoundaryStep(boundary, 'tool');
    expect(step.name).toBe('error-boundary');
    const value = { content: [{ type: 'text', text: 'ok' }] };
    await expect(compose([step.run, () => value])(stateOf())).resolves.toBe(value);
  });

  it('reads the mode when the call ends: a call an inner step made a task answers with the task outcome', async () => {
    const becomeTask = (state: CallState, next: StepNext) => {
      // What the task-escalation step tells the call (CallState.becomeTask), on this stand-in state.
      (state as unknown as { mode: CallMode }).mode = 'task';
      return next(state);
    };
    const run = compose([errorBoundaryStep(boundary, 'tool').run, becomeTask, () => ({ content: [] })]);
    await expect(run(stateOf())).resolves.toEqual({ value: { content: [], resultType: 'complete' } });
    const failing = compose([
      errorBoundaryStep(boundary, 'tool').run,
      becomeTask,
      () => {
        throw new Error('disk on fire');
      }
    ]);
    await expect(failing(stateOf())).resolves.toEqual({ error: { code: -32603, message: 'disk on fire' } });
  });

  it('maps a failure of any inner step, a synchronous throw included, by the kind it was built for', async () => {
    const throwing = () => {
      throw new UnknownResourceError('demo://x');
    };
    await expect(compose([errorBoundaryStep(boundary, 'tool').run, throwing])(stateOf())).rejects.toMatchObject({ code: -32602 });
    const tool = compose([
      errorBoundaryStep(boundary, 'tool').run,
      () => {
        throw new ToolError('nope');
      }
    ]);
    await expect(tool(stateOf())).resolves.toEqual(errorResult('nope'));
    const resource = compose([errorBoundaryStep(boundary, 'resource').run, () => Promise.reject(new ToolError('nope'))]);
    await expect(resource(stateOf())).rejects.toMatchObject({ code: -32603, message: 'nope' });
  });

  it("sees the compose gate's refusal too: a call aborted before its next step is a cancelled tool result", async () => {
    const controller = new AbortController();
    const abortThenGoOn = (state: CallState, next: StepNext) => {
      controller.abort('the client gave up');
      return next(state);
    };
    const inner = jest.fn();
    const run = compose([errorBoundaryStep(boundary, 'tool').run, abortThenGoOn, inner]);
    const answer = (await run(stateOf('request', controller.signal))) as ReturnType<typeof errorResult>;
    expect(answer.isError).toBe(true);
    expect(answer.content[0].text).toMatch(/^The call was cancelled/);
    expect(inner).not.toHaveBeenCalled();
  });
});
