import { randomBytes } from 'node:crypto';
import { ProtocolError } from '@modelcontextprotocol/server';
import { container as rootContainer } from 'tsyringe';
import { CallEngine } from '../../../src/app/call-engine';
import { InProcessCallQueue } from '../../../src/concurrency/call-queue';
import { FifoMutex } from '../../../src/concurrency/fifo-mutex';
import { SignedContinuationStore } from '../../../src/interactive/continuation-store';
import { buildChain, type ChainDependencies, type ChainSpec } from '../../../src/pipeline/chain-builder';
import { compileMember } from '../../../src/pipeline/compile-member';
import { memberInfo, type MemberSpec } from '../../../src/pipeline/member-spec';
import { ErrorBoundary } from '../../../src/pipeline/error-boundary';
import { named, namedExit } from '../../../src/pipeline/steps/named-step';
import type { CallKind, Constructor, MemberKind } from '../../../src/types/core';
import type { Middleware, MiddlewareFn } from '../../../src/types/middleware';
import type { CallRequest } from '../../../src/types/request';
import type { ExtensionLife } from '../../../src/pipeline/steps/call-life.step';

/**
 * The chain builder (src/pipeline/chain-builder.ts): which steps a member's chain has, in which
 * order, for every combination of what the member declares; and that the error boundary is
 * always the first step, so whatever a later step refuses is still answered through it.
 */

/** A call-life point that applies to tools that declare `task` (as the tasks extension's does), never run here: only its presence matters. */
const TASK_LIFE: ExtensionLife = {
  id: 'com.example/tasks-like',
  life: {
    appliesTo: (tool) => tool.task !== undefined,
    around: () => Promise.reject(new Error('no call of these tests runs'))
  }
};

function dependencies(overrides: Partial<ChainDependencies> = {}): ChainDependencies {
  return {
    container: rootContainer.createChildContainer(),
    boundary: new ErrorBoundary(false, () => undefined),
    queue: new InProcessCallQueue(),
    mutationLock: new FifoMutex(),
    globalMiddleware: [],
    continuations: new SignedContinuationStore(randomBytes(32), 600),
    callLives: [TASK_LIFE],
    needsCallScope: () => false,
    presenterTimeoutMs: 10_000,
    ...overrides
  };
}

/** Which optional stages a member has. */
interface Flags {
  readonly scopes: boolean;
  readonly requires: boolean;
  readonly task: boolean;
  readonly timeout: boolean;
  readonly interactive: boolean;
  readonly mutation: boolean;
  readonly generator: boolean;
  readonly validate: boolean;
}
const FLAG_NAMES: readonly (keyof Flags)[] = ['scopes', 'requires', 'task', 'timeout', 'interactive', 'mutation', 'generator', 'validate'];
const NONE: Flags = {
  scopes: false,
  requires: false,
  task: false,
  timeout: false,
  interactive: false,
  mutation: false,
  generator: false,
  validate: false
};

function specOf(flags: Flags, middleware: readonly Middleware[] = [], kind: CallKind = 'tool'): ChainSpec {
  class DemoTools {}
  return {
    kind,
    info: memberInfo('demo.member', 'action', flags.interactive, 'DemoTools', 'member', flags.scopes ? ['demo:write'] : []),
    label: 'Tool demo.member',
    target: DemoTools,
    singleUseState: false,
    ...(flags.requires ? { requires: { sampling: {} } } : {}),
    ...(flags.task ? { task: { support: 'optional' as const } } : {}),
    ...(flags.timeout ? { timeoutMs: 5_000 } : {}),
    present: named('present', (state, next) => next(state)),
    mutation: flags.mutation,
    isGenerator: flags.generator,
    middleware,
    ...(flags.validate ? { validate: (raw: Readonly<Record<string, unknown>>) => ({ value: raw }) } : {}),
    perCall: false,
    callLives: flags.task ? [TASK_LIFE] : [],
    terminal: named('terminal', () => 'done')
  };
}

/**
 * The documented order (the comment of `buildChain`), with the stages a member does not have
 * left out: this is the specification the builder is checked against.
 */
function documentedOrder(flags: Flags, middleware: readonly string[] = []): string[] {
  const order: [string, boolean][] = [
    ['error-boundary', true],
    ['scope-check', flags.scopes],
    ['capability-check', flags.requires],
    ['flush', true],
    ['timeout', flags.timeout],
    ['present', true],
    ['ask', flags.interactive],
    ['queue', true],
    ['context', true],
    ...middleware.map((name): [string, boolean] => [name, true]),
    ['mutation-lock', flags.mutation],
    ['validate-input', flags.validate],
    ['open-continuation', flags.interactive],
    ['call-life', flags.task],
    ['generator-driver', flags.generator],
    ['terminal', true]
  ];
  return order.filter(([, present]) => present).map(([name]) => name);
}

const namesOf = (spec: ChainSpec, deps = dependencies()) => buildChain(spec, deps).steps.map((step) => step.name);

/** Every combination of the eight optional stages (256). */
const COMBINATIONS: Flags[] = Array.from(
  { length: 1 << FLAG_NAMES.length },
  (_, bits) => Object.fromEntries(FLAG_NAMES.map((name, i) => [name, (bits & (1 << i)) !== 0])) as unknown as Flags
);

describe('buildChain: the steps of a chain, in order', () => {
  it.each<[string, Partial<Flags>, string[]]>([
    ['nothing declared', {}, ['error-boundary', 'flush', 'present', 'queue', 'context', 'terminal']],
    ['scopes', { scopes: true }, ['error-boundary', 'scope-check', 'flush', 'present', 'queue', 'context', 'terminal']],
    ['requires', { requires: true }, ['error-boundary', 'capability-check', 'flush', 'present', 'queue', 'context', 'terminal']],
    ['task', { task: true }, ['error-boundary', 'flush', 'present', 'queue', 'context', 'call-life', 'terminal']],
    ['timeout', { timeout: true }, ['error-boundary', 'flush', 'timeout', 'present', 'queue', 'context', 'terminal']],
    [
      'interactive',
      { interactive: true },
      ['error-boundary', 'flush', 'present', 'ask', 'queue', 'context', 'open-continuation', 'terminal']
    ],
    ['mutation', { mutation: true }, ['error-boundary', 'flush', 'present', 'queue', 'context', 'mutation-lock', 'terminal']],
    ['generator', { generator: true }, ['error-boundary', 'flush', 'present', 'queue', 'context', 'generator-driver', 'terminal']],
    ['validate', { validate: true }, ['error-boundary', 'flush', 'present', 'queue', 'context', 'validate-input', 'terminal']],
    [
      'everything',
      { scopes: true, requires: true, task: true, timeout: true, interactive: true, mutation: true, generator: true, validate: true },
      [
        'error-boundary',
        'scope-check',
        'capability-check',
        'flush',
        'timeout',
        'present',
        'ask',
        'queue',
        'context',
        'mutation-lock',
        'validate-input',
        'open-continuation',
        'call-life',
        'generator-driver',
        'terminal'
      ]
    ]
  ])('%s', (_what, flags, expected) => {
    expect(namesOf(specOf({ ...NONE, ...flags }))).toEqual(expected);
  });

  it('every one of the 256 combinations of the optional stages gives the documented order, the boundary first and the terminal last', () => {
    const wrong: string[] = [];
    for (const flags of COMBINATIONS) {
      const names = namesOf(specOf(flags));
      const expected = documentedOrder(flags);
      if (JSON.stringify(names) !== JSON.stringify(expected)) {
        wrong.push(`${FLAG_NAMES.filter((f) => flags[f]).join('+') || 'none'}: ${names.join(' → ')}`);
      }
      if (names[0] !== 'error-boundary' || names.indexOf('error-boundary', 1) !== -1)
        wrong.push(`boundary not first alone: ${names.join(' → ')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a keyed mutation takes its lock after validation (its keys come from the validated input); an app-wide one before', () => {
    const keyed = { ...specOf({ ...NONE, mutation: true, validate: true, interactive: true, task: true }), lockKeys: () => 'k' };
    expect(namesOf(keyed)).toEqual([
      'error-boundary',
      'flush',
      'present',
      'ask',
      'queue',
      'context',
      'validate-input',
      'keyed-lock',
      'open-continuation',
      'call-life',
      'terminal'
    ]);
    const notMutation = { ...specOf({ ...NONE, validate: true }), lockKeys: () => 'k' };
    expect(namesOf(notMutation)).not.toContain('keyed-lock');
  });

  it("an extension's checkFor: its check runs after the scope check and before requires; a tool it returns none for gets no step", () => {
    const checking: ExtensionLife = {
      id: 'com.example/checking',
      life: { ...TASK_LIFE.life, checkFor: (tool) => (tool.task?.support === 'required' ? () => undefined : undefined) }
    };
    const required = {
      ...specOf({ ...NONE, scopes: true, requires: true, task: true }),
      task: { support: 'required' as const },
      callLives: [checking]
    };
    expect(namesOf(required).slice(0, 5)).toEqual(['error-boundary', 'scope-check', 'call-life-check', 'capability-check', 'flush']);
    const optional = { ...specOf({ ...NONE, task: true }), task: { support: 'optional' as const }, callLives: [checking] };
    expect(namesOf(optional)).not.toContain('call-life-check');
    const broken: ExtensionLife = { id: 'com.example/broken', life: { ...TASK_LIFE.life, checkFor: () => 'no' as never } };
    expect(() => namesOf({ ...specOf({ ...NONE, task: true }), callLives: [broken] })).toThrow(
      'extension com.example/broken: callLife.checkFor(demo.member) must return a function or undefined'
    );
  });

  it('the same stages for every kind (they differ only in their present and terminal steps)', () => {
    const everything = Object.fromEntries(FLAG_NAMES.map((f) => [f, true])) as unknown as Flags;
    const tool = namesOf(specOf(everything, [], 'tool'));
    for (const kind of ['resource', 'prompt', 'completion'] as const) expect(namesOf(specOf(everything, [], kind))).toEqual(tool);
  });

  it('middleware runs inside the queue and the context, before the mutation lock, in the order given; each step named after it', () => {
    const audit: MiddlewareFn = (_ctx, next) => next();
    const metrics: MiddlewareFn = (_ctx, next) => next();
    class Tracing {
      use(_ctx: unknown, next: () => Promise<unknown>) {
        return next();
      }
    }
    const middleware = [audit, Tracing, (_ctx: unknown, next: () => Promise<unknown>) => next(), metrics] as Middleware[];
    const flags = { ...NONE, mutation: true, validate: true };
    expect(namesOf(specOf(flags, middleware))).toEqual(
      documentedOrder(flags, ['middleware:audit', 'middleware:Tracing', 'middleware:anonymous', 'middleware:metrics'])
    );
  });

  it('no call-life step where no extension has a call-life point; none for empty scopes', () => {
    expect(namesOf({ ...specOf({ ...NONE, task: true }), callLives: [] })).toEqual(documentedOrder(NONE));
    const unscoped = specOf(NONE);
    expect(namesOf({ ...unscoped, info: { ...unscoped.info, scopes: [] } })).toEqual(documentedOrder(NONE));
  });

  it('the steps are frozen data; run is their composition', () => {
    const chain = buildChain(specOf(NONE), dependencies());
    expect(Object.isFrozen(chain.steps)).toBe(true);
    expect(typeof chain.run).toBe('function');
  });
  it('the leading exit hooks (flush, a presentation that is only one) are the engine\'s to apply, past the checks made on the way in; the first step that wraps the rest ends them', () => {
    const exitPresent = namedExit('present', { value: (_state, value) => value });
    const plain = buildChain({ ...specOf({ ...NONE, scopes: true, requires: true }), present: exitPresent }, dependencies());
    expect(plain.exits).toHaveLength(2);
    expect(plain.exits[0]).toBe(plain.steps.find((step) => step.name === 'flush')!.exit);
    expect(plain.exits[1]).toBe(exitPresent.exit);
    // The description does not change: the chain as data still lists them where they act.
    expect(plain.steps.map((step) => step.name)).toEqual(documentedOrder({ ...NONE, scopes: true, requires: true }));
    // A timeout wraps the presentation: only the flush, outside it, is the engine's.
    expect(buildChain({ ...specOf({ ...NONE, timeout: true }), present: exitPresent }, dependencies()).exits).toHaveLength(1);
    // A presentation that wraps the rest (not an exit hook) stays in the chain.
    expect(buildChain(specOf(NONE), dependencies()).exits).toHaveLength(1);
    // Traced, a presentation that is an exit hook stays one (its span opened inside the hook).
    expect(buildChain({ ...specOf(NONE), present: exitPresent }, dependencies({ telemetry: true })).exits).toHaveLength(2);
  });
});

/** A member spec for compileMember (and a run through the engine); `memberKind` and `scopes` go into its `info`. */
function memberSpec(overrides: Partial<MemberSpec> & { memberKind?: MemberKind; scopes?: readonly string[] } = {}): MemberSpec {
  class DemoTools {}
  const { memberKind = 'action', scopes = [], ...rest } = overrides;
  return {
    kind: 'tool',
    info: memberInfo('demo.member', memberKind, false, 'DemoTools', 'member', scopes),
    label: 'Tool demo.member',
    target: DemoTools,
    singleUseState: false,
    middleware: [],
    present: named('present', (state, next) => next(state)),
    terminal: named('terminal', () => ({ content: [{ type: 'text', text: 'done' }] })),
    ...rest
  };
}

describe('compileMember: the one compile path', () => {
  it("global middleware first, then the member's own (class, method)", () => {
    const everyCall: MiddlewareFn = (_ctx, next) => next();
    const own: MiddlewareFn = (_ctx, next) => next();
    const member = compileMember(memberSpec({ middleware: [own] }), dependencies({ globalMiddleware: [everyCall] }));
    expect(member.steps.map((s) => s.name)).toEqual(documentedOrder(NONE, ['middleware:everyCall', 'middleware:own']));
  });

  it('a member may answer before its chain ends only where a call-life point applies to it (asked once, at startup)', () => {
    const task = { support: 'optional' as const };
    expect(compileMember(memberSpec({ task }), dependencies()).mayBecomeTask).toBe(true);
    const without = compileMember(memberSpec({ task }), dependencies({ callLives: undefined }));
    expect(without.mayBecomeTask).toBe(false);
    expect(without.steps.map((s) => s.name)).not.toContain('call-life');
    // A tool the point does not apply to gets no step; prompts and resources never do.
    expect(compileMember(memberSpec(), dependencies()).steps.map((s) => s.name)).not.toContain('call-life');
    const asked: string[] = [];
    const everyTool: ExtensionLife = {
      id: 'com.example/all',
      life: { appliesTo: (tool) => (asked.push(tool.name), true), around: (_call, next) => next() }
    };
    expect(compileMember(memberSpec({ kind: 'prompt' }), dependencies({ callLives: [everyTool] })).mayBecomeTask).toBe(false);
    const two = compileMember(memberSpec({ task }), dependencies({ callLives: [TASK_LIFE, everyTool] }));
    expect(two.steps.filter((s) => s.name === 'call-life')).toHaveLength(2);
    expect(asked).toEqual(['demo.member']);
  });

  it('asks needsCallScope about the target, the middleware classes and the presenter', () => {
    class Presenter {}
    class Guard {
      use(_ctx: unknown, next: () => Promise<unknown>) {
        return next();
      }
    }
    const asked: Constructor[][] = [];
    const spec = memberSpec({ middleware: [Guard, (_ctx: unknown, next: () => Promise<unknown>) => next()], presenterClass: Presenter });
    compileMember(spec, dependencies({ needsCallScope: (classes) => (asked.push([...classes]), false) }));
    expect(asked).toEqual([[spec.target, Guard, Presenter]]);
  });
});

describe('a compiled chain run by the engine: the boundary is first', () => {
  const ENGINE_BOUNDARY = new ErrorBoundary(false, () => undefined);
  const engineOf = (deps: ChainDependencies) => new CallEngine(deps.container, () => undefined, ENGINE_BOUNDARY);
  const request = (extra: Partial<CallRequest> = {}): CallRequest => ({ subject: 'demo.member', ...extra });

  it('runs middleware (global, class, method) and then the terminal, in the listed order, and answers with its value', async () => {
    const order: string[] = [];
    const deps = dependencies({
      globalMiddleware: [
        async (_ctx, next) => {
          order.push('global');
          return next();
        }
      ]
    });
    const member = compileMember(
      memberSpec({
        middleware: [
          async (_ctx, next) => {
            order.push('class');
            return next();
          },
          async (_ctx, next) => {
            order.push('method');
            return next();
          }
        ],
        terminal: named('terminal', () => {
          order.push('terminal');
          return { content: [{ type: 'text', text: 'done' }] };
        })
      }),
      deps
    );
    await expect(engineOf(deps).run(member, request())).resolves.toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(order).toEqual(['global', 'class', 'method', 'terminal']);
  });

  it('a presentation that is an exit hook maps the answer where the call finishes, sync or async; what it throws is answered through the boundary', async () => {
    const deps = dependencies();
    const engine = engineOf(deps);
    const wrap = (value: unknown) => ({ content: [{ type: 'text', text: `presented ${JSON.stringify(value)}` }] });
    const sync = compileMember(memberSpec({ present: namedExit('present', { value: (_state, value) => wrap(value) }), terminal: named('terminal', () => 1) }), deps);
    await expect(engine.run(sync, request())).resolves.toEqual(wrap(1));
    const later = compileMember(
      memberSpec({ present: namedExit('present', { value: (_state, value) => Promise.resolve(wrap(value)) }), terminal: named('terminal', async () => 2) }),
      deps
    );
    await expect(engine.run(later, request())).resolves.toEqual(wrap(2));
    const refusing = compileMember(
      memberSpec({
        present: namedExit('present', {
          value: () => {
            throw new Error('cannot present');
          }
        })
      }),
      deps
    );
    await expect(engine.run(refusing, request())).resolves.toMatchObject({ isError: true });
    expect(engine.activeCalls).toBe(0);
  });

  it('a refusal of the scope check (the step after the boundary) is answered through it: an isError tool result, -32600 for a prompt', async () => {
    const deps = dependencies();
    const terminal = jest.fn(() => 'never');
    const authInfo = { token: 't', clientId: 'c', scopes: ['demo:read'] };
    const tool = compileMember(memberSpec({ scopes: ['demo:write'], terminal: named('terminal', terminal) }), deps);
    await expect(engineOf(deps).run(tool, request({ authInfo }))).resolves.toEqual({
      isError: true,
      content: [
        { type: 'text', text: "Tool demo.member needs the scope demo:write, which the caller's token does not grant; nothing was run." }
      ]
    });
    const prompt = compileMember(
      memberSpec({
        kind: 'prompt',
        memberKind: 'prompt',
        label: 'Prompt greeting',
        scopes: ['demo:write'],
        terminal: named('terminal', terminal)
      }),
      deps
    );
    const refused = await engineOf(deps)
      .run(prompt, request({ authInfo }))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused).toMatchObject({ code: -32600 });
    expect(terminal).not.toHaveBeenCalled();
    expect(deps.queue.active).toBe(0);
  });

  it('a missing client capability is -32021 before the queue or the handler', async () => {
    const deps = dependencies();
    const terminal = jest.fn(() => 'never');
    const member = compileMember(memberSpec({ requires: { sampling: {} }, terminal: named('terminal', terminal) }), deps);
    const refused = await engineOf(deps)
      .run(member, request({ clientCapabilities: {} }))
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    expect(terminal).not.toHaveBeenCalled();
  });

  it('a failure of the terminal, the innermost step, reaches the boundary through every step (a resource: -32603)', async () => {
    const deps = dependencies();
    const member = compileMember(
      memberSpec({
        kind: 'resource',
        memberKind: 'resource',
        mutation: true,
        timeoutMs: 1_000,
        terminal: named('terminal', () => Promise.reject(new Error('disk on fire')))
      }),
      deps
    );
    await expect(engineOf(deps).run(member, request({ subject: 'demo://x' }))).rejects.toMatchObject({
      code: -32603,
      message: 'disk on fire'
    });
    expect(deps.queue.active).toBe(0);
    expect((deps.mutationLock as FifoMutex).locked).toBe(false);
  });
});
