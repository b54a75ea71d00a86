import { compose, type Step } from '../../../src/pipeline/compose';
import type { CallState } from '../../../src/pipeline/call-state';
import { CancelledError, NextCalledTwiceError } from '../../../src/advanced';
import { CallAbort } from '../../../src/concurrency/call-abort';

function state(signal = new AbortController().signal): CallState {
  return { aborter: new CallAbort(signal) } as unknown as CallState;
}

describe('compose', () => {
  it('runs steps in order, onion style, and returns the innermost value', async () => {
    const order: string[] = [];
    const steps: Step[] = [
      async (s, next) => {
        order.push('a>');
        const v = await next(s);
        order.push('<a');
        return v;
      },
      async (s, next) => {
        order.push('b>');
        const v = await next(s);
        order.push('<b');
        return v;
      },
      () => {
        order.push('handler');
        return 42;
      }
    ];
    await expect(compose(steps)(state())).resolves.toBe(42);
    expect(order).toEqual(['a>', 'b>', 'handler', '<b', '<a']);
  });

  it('rejects when a step calls next twice', async () => {
    const steps: Step[] = [
      async (s, next) => {
        await next(s);
        return next(s);
      },
      () => 1
    ];
    await expect(compose(steps)(state())).rejects.toBeInstanceOf(NextCalledTwiceError);
  });

  it('lets a step short-circuit without calling next', async () => {
    const handler = jest.fn(() => 'handler');
    await expect(compose([() => 'short', handler])(state())).resolves.toBe('short');
    expect(handler).not.toHaveBeenCalled();
  });

  it('checks the signal before every step: an aborted call runs no further step', async () => {
    const controller = new AbortController();
    const later = jest.fn(() => 'late');
    const steps: Step[] = [
      (s, next) => {
        controller.abort();
        return next(s);
      },
      later
    ];
    await expect(compose(steps)(state(controller.signal))).rejects.toBeInstanceOf(CancelledError);
    expect(later).not.toHaveBeenCalled();
  });

  it('turns a synchronous throw into a rejection', async () => {
    const steps: Step[] = [
      () => {
        throw new Error('boom');
      }
    ];
    await expect(compose(steps)(state())).rejects.toThrow('boom');
  });
});
