import { PassThrough } from 'node:stream';
import { Interrupt } from '../../../packages/cli/src/interrupt';
import type { Terminal } from '../../../packages/cli/src/terminal';

/** A terminal whose streams are not TTYs (Ctrl-C then comes as SIGINT; presses are counted the same). */
function pipes(): Terminal {
  const stream = () => new PassThrough() as unknown as NodeJS.WriteStream & NodeJS.ReadStream;
  return { out: stream(), err: stream(), in: stream(), interactive: false, colour: false };
}

describe('Interrupt (Ctrl-C while a call runs)', () => {
  it('the first press aborts the call, the second exits at once', () => {
    const exits: string[] = [];
    const interrupt = new Interrupt(pipes(), () => exits.push('exit'));
    interrupt.arm();
    try {
      expect(interrupt.signal.aborted).toBe(false);
      interrupt.press();
      expect(interrupt.signal.aborted).toBe(true);
      expect((interrupt.signal.reason as Error).message).toBe('Cancelled by Ctrl-C');
      expect(exits).toEqual([]);
      interrupt.press();
      expect(exits).toEqual(['exit']);
    } finally {
      interrupt.disarm();
    }
  });

  it('takes SIGINT while armed, and leaves SIGINT alone once disarmed', () => {
    const interrupt = new Interrupt(pipes(), () => undefined);
    const before = process.listenerCount('SIGINT');
    interrupt.arm();
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    process.emit('SIGINT');
    expect(interrupt.signal.aborted).toBe(true);
    interrupt.disarm();
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});
