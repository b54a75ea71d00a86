import { MAX_INPUT_ROUNDS, followInputRounds, type AskedInput } from '../../../src/wire/input-rounds';
import { MAX_INPUT_ROUNDS as ENFORCED } from '../../../src/interactive/continuation';

/**
 * The client side of a call's rounds of input, shared by `app.callTool`, its `asTask` form and
 * the terminal client: each round's requests are answered and the call made again with the
 * echoed state, until a result asks nothing more, at most as many times as the framework allows.
 */
const asking = (round: number): AskedInput => ({
  resultType: 'input_required',
  inputRequests: { [`q${round}`]: { method: 'elicitation/create', params: { message: `question ${round}` } } },
  requestState: `state-${round}`
});

describe('followInputRounds', () => {
  it('passes a first result that asks nothing through, answering nothing', async () => {
    const answer = jest.fn();
    await expect(followInputRounds(Promise.resolve({ done: true }), { next: jest.fn(), answer })).resolves.toEqual({ done: true });
    expect(answer).not.toHaveBeenCalled();
  });

  it('answers each round and calls again with the echoed state and the answers, until done', async () => {
    const calls: Array<[string | undefined, Record<string, unknown>]> = [];
    const result = await followInputRounds<{ done: number }>(Promise.resolve(asking(1)), {
      next: async (requestState, inputResponses) => {
        calls.push([requestState, inputResponses]);
        return calls.length < 3 ? asking(calls.length + 1) : { done: calls.length };
      },
      answer: async (requests) => Object.fromEntries(Object.keys(requests).map((key) => [key, { action: 'accept', content: { key } }]))
    });
    expect(result).toEqual({ done: 3 });
    expect(calls).toEqual([
      ['state-1', { q1: { action: 'accept', content: { key: 'q1' } } }],
      ['state-2', { q2: { action: 'accept', content: { key: 'q2' } } }],
      ['state-3', { q3: { action: 'accept', content: { key: 'q3' } } }]
    ]);
  });

  it("gives up after the rounds the framework enforces, with the caller's error", async () => {
    expect(MAX_INPUT_ROUNDS).toBe(ENFORCED);
    const next = jest.fn(async () => asking(0));
    await expect(
      followInputRounds(Promise.resolve(asking(0)), { next, answer: async () => ({}), tooManyRounds: (n) => new Error(`over ${n}`) })
    ).rejects.toThrow(`over ${MAX_INPUT_ROUNDS}`);
    expect(next).toHaveBeenCalledTimes(MAX_INPUT_ROUNDS);
  });
});
