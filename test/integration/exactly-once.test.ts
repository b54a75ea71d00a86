/**
 * A confirmed mutation happens exactly once, even when its response stream breaks and the client
 * re-issues the confirming round with a new request id (the 2026-07-28 rule, SEP-2575): over
 * real HTTP on 127.0.0.1, the first attempt's socket is destroyed at several moments, and every
 * case ends with one effect in the ledger and a successful result for the client. A re-issue
 * that differs (answers, arguments, caller) is refused; one whose first attempt failed before
 * it finished runs the handler.
 */
import { connect, type Socket } from 'node:net';
import { IsInt, Min } from 'class-validator';
import {
  Action,
  FusionApp,
  Input,
  Interactive,
  Mutation,
  ToolError,
  ToolProvider,
  ask,
  readInput,
  requireInput,
  type MiddlewareFn
} from '../../src';
import { modernRequest, postRaw, rawRequestText, responseOf } from '../helpers/raw-http';

class RefundInput {
  @IsInt()
  @Min(1)
  id!: number;
}

/** A promise the test settles. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const ledger: number[] = [];
let runs = 0;
let failNext = false;
/** The invoice the handler refuses with a ToolError (its answer, not a failure). */
const LOCKED = 9;
let hooks = { started: deferred(), beforeCommit: deferred(), committed: deferred(), afterCommit: deferred(), beforeHandler: deferred() };
let holdBeforeHandler = false;

@ToolProvider()
class Ledger {
  @Interactive({ exactlyOnce: true })
  @Mutation('ledger.refund', { description: 'Refunds an invoice after a confirmation.' })
  async refund(@Input() input: RefundInput) {
    const confirm = readInput<boolean>('confirm');
    if (confirm === undefined) return requireInput.elicit(`Refund invoice ${input.id}?`, { confirm: ask.boolean('Confirm the refund') });
    if (!confirm) return `Invoice ${input.id} was not refunded`;
    runs++;
    if (input.id === LOCKED) throw new ToolError(`Invoice ${input.id} is locked; nothing was refunded`);
    hooks.started.resolve();
    if (failNext) {
      failNext = false;
      // An unexpected failure (a ToolError would be the handler's answer, recorded as the round's outcome).
      throw new Error('The ledger was busy; nothing was refunded');
    }
    await hooks.beforeCommit.promise;
    ledger.push(input.id); // the commit: one write
    hooks.committed.resolve();
    await hooks.afterCommit.promise;
    return `Refunded invoice ${input.id}`;
  }

  @Action('ledger.count', { description: 'How many refunds the ledger holds.' })
  count() {
    return String(ledger.length);
  }
}

/** Holds a call before its handler (before its round is claimed) while the test says so. */
const gateBeforeHandler: MiddlewareFn = async (_ctx, next) => {
  if (holdBeforeHandler) await hooks.beforeHandler.promise;
  return next();
};

let app: FusionApp;
let url: URL;
beforeAll(async () => {
  app = FusionApp.create({
    tools: [Ledger],
    middleware: [gateBeforeHandler],
    // Who the caller is, for the binding (a test stand-in for a token's principal).
    principalOf: (extra) => extra.httpRequest?.headers.get('x-caller') ?? undefined
  });
  ({ url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
});
afterAll(() => app.close());
beforeEach(() => {
  ledger.length = 0;
  runs = 0;
  failNext = false;
  holdBeforeHandler = false;
  hooks = { started: deferred(), beforeCommit: deferred(), committed: deferred(), afterCommit: deferred(), beforeHandler: deferred() };
});

const CALLER = { 'x-caller': 'alice' };

/** Round one: the question, its state and its key. */
async function ask1(id: number): Promise<{ requestState: string; key: string }> {
  const { body, headers } = modernRequest('tools/call', { name: 'ledger.refund', arguments: { id } });
  const result = responseOf(await postRaw(url, body, { ...headers, ...CALLER })).result as { requestState: string; inputRequests: object };
  return { requestState: result.requestState, key: Object.keys(result.inputRequests)[0] };
}

/** The confirming round (a fresh request id each time it is built). */
function confirming(id: number, round: { requestState: string; key: string }, confirm = true, args: Record<string, unknown> = { id }) {
  return modernRequest('tools/call', {
    name: 'ledger.refund',
    arguments: args,
    requestState: round.requestState,
    inputResponses: { [round.key]: { action: 'accept', content: { confirm } } }
  });
}

/** Sends a request on a raw socket the test can destroy (the broken stream). */
function sendOnSocket(request: { body: string; headers: Record<string, string> }): Socket {
  const socket = connect(Number(url.port), '127.0.0.1', () =>
    socket.write(
      rawRequestText({
        target: '/mcp',
        hostLines: [`127.0.0.1:${url.port}`],
        headers: { ...request.headers, ...CALLER },
        body: request.body
      })
    )
  );
  socket.on('error', () => undefined);
  return socket;
}

async function reissue(request: { body: string; headers: Record<string, string> }, caller = CALLER) {
  return responseOf(await postRaw(url, request.body, { ...request.headers, ...caller }));
}

const refunded = (id: number) => ({ content: [{ type: 'text', text: `Refunded invoice ${id}` }] });

describe('the confirming round of an exactly-once tool, its stream broken and the round re-issued with a new id', () => {
  it('broken before the handler started: the re-issue runs it; one refund', async () => {
    const round = await ask1(1);
    holdBeforeHandler = true;
    const socket = sendOnSocket(confirming(1, round));
    await new Promise((resolve) => setImmediate(resolve));
    socket.destroy(); // the first attempt is cancelled before its round is claimed
    holdBeforeHandler = false;
    hooks.beforeHandler.resolve();
    hooks.beforeCommit.resolve();
    hooks.afterCommit.resolve();
    expect((await reissue(confirming(1, round))).result).toMatchObject(refunded(1));
    expect(ledger).toEqual([1]);
  });

  it('broken while the handler runs: the re-issue waits for the first attempt and gets its result; one refund, one run', async () => {
    const round = await ask1(2);
    const socket = sendOnSocket(confirming(2, round));
    await hooks.started.promise;
    socket.destroy();
    const again = reissue(confirming(2, round));
    hooks.beforeCommit.resolve();
    hooks.afterCommit.resolve();
    expect((await again).result).toMatchObject(refunded(2));
    expect(ledger).toEqual([2]);
    expect(runs).toBe(1);
  });

  it('broken after the commit, before the answer was written: the re-issue gets the recorded result; one refund, one run', async () => {
    const round = await ask1(3);
    const socket = sendOnSocket(confirming(3, round));
    hooks.beforeCommit.resolve();
    await hooks.committed.promise;
    socket.destroy();
    const again = reissue(confirming(3, round));
    hooks.afterCommit.resolve();
    expect((await again).result).toMatchObject(refunded(3));
    expect(ledger).toEqual([3]);
    expect(runs).toBe(1);
  });

  it('re-issued after the first attempt finished: the recorded result, nothing runs again', async () => {
    const round = await ask1(4);
    hooks.beforeCommit.resolve();
    hooks.afterCommit.resolve();
    expect((await reissue(confirming(4, round))).result).toMatchObject(refunded(4));
    expect((await reissue(confirming(4, round))).result).toMatchObject(refunded(4));
    expect(ledger).toEqual([4]);
    expect(runs).toBe(1);
  });

  it('a first attempt that failed before it finished gives the round back: the re-issue runs the handler', async () => {
    const round = await ask1(5);
    failNext = true;
    expect((await reissue(confirming(5, round))).result).toMatchObject({ isError: true });
    hooks.beforeCommit.resolve();
    hooks.afterCommit.resolve();
    expect((await reissue(confirming(5, round))).result).toMatchObject(refunded(5));
    expect(ledger).toEqual([5]);
  });

  it('a round given back keeps its answers: the state sent again with other answers is refused, with the same ones it runs', async () => {
    const round = await ask1(8);
    failNext = true;
    expect((await reissue(confirming(8, round))).result).toMatchObject({ isError: true });
    const otherAnswer = await reissue(confirming(8, round, false));
    expect(otherAnswer.error).toMatchObject({ code: -32602, message: expect.stringContaining('already used') });
    hooks.beforeCommit.resolve();
    hooks.afterCommit.resolve();
    expect((await reissue(confirming(8, round))).result).toMatchObject(refunded(8));
    expect(ledger).toEqual([8]);
  });
});

describe('a ToolError the handler throws is the round’s outcome, like a decline', () => {
  it('the re-issue gets the same error without running the handler, and the state sent again with other answers is refused', async () => {
    const round = await ask1(LOCKED);
    const before = runs;
    const refusal = { isError: true, content: [{ type: 'text', text: `Invoice ${LOCKED} is locked; nothing was refunded` }] };
    expect((await reissue(confirming(LOCKED, round))).result).toMatchObject(refusal);
    expect((await reissue(confirming(LOCKED, round))).result).toMatchObject(refusal);
    expect(runs).toBe(before + 1);
    const otherAnswer = await reissue(confirming(LOCKED, round, false));
    expect(otherAnswer.error).toMatchObject({ code: -32602, message: expect.stringContaining('already used') });
  });
});

describe('what is not a re-issue is refused as a replay (-32602), and never gets another round’s result', () => {
  it('other answers, other arguments, another caller', async () => {
    const round = await ask1(6);
    hooks.beforeCommit.resolve();
    hooks.afterCommit.resolve();
    expect((await reissue(confirming(6, round))).result).toMatchObject(refunded(6));
    const otherAnswer = await reissue(confirming(6, round, false));
    expect(otherAnswer.error).toMatchObject({ code: -32602, message: expect.stringContaining('already used') });
    const otherArgs = await reissue(confirming(6, round, true, { id: 7 }));
    expect(otherArgs.error).toMatchObject({ code: -32602, message: expect.stringContaining('other arguments') });
    const otherCaller = await reissue(confirming(6, round), { 'x-caller': 'mallory' });
    expect(otherCaller.error).toMatchObject({ code: -32602, message: expect.stringContaining('another caller') });
    expect(ledger).toEqual([6]);
  });
});
