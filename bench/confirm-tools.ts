import { IsInt, Min } from 'class-validator';
import { FusionApp, Input, Interactive, Mutation, ToolProvider, ask, readInput, requireInput, type ContinuationStore } from '../src';

class Target {
  @IsInt()
  @Min(1)
  id!: number;
}

/** The same confirmed mutation, with a single-use state, and exactly once. */
@ToolProvider()
class ConfirmedWrites {
  @Interactive({ singleUseState: true })
  @Mutation('confirm.single', { description: 'A confirmed write, single-use state.' })
  single(@Input() input: Target) {
    return confirmThenWrite(input.id);
  }

  @Interactive({ exactlyOnce: true })
  @Mutation('confirm.once', { description: 'A confirmed write, exactly once.' })
  once(@Input() input: Target) {
    return confirmThenWrite(input.id);
  }
}

function confirmThenWrite(id: number) {
  const confirm = readInput<boolean>('confirm');
  if (confirm === undefined) return requireInput.elicit(`Write ${id}?`, { confirm: ask.boolean('Confirm') });
  return confirm ? `wrote ${id}` : 'nothing written';
}

/** An app with both tools (the continuation store given, else the default). */
export function confirmApp(continuationStore?: ContinuationStore): FusionApp {
  return FusionApp.create({
    tools: [ConfirmedWrites],
    stateKey: 'bench-state-key-of-at-least-32-bytes!!',
    logger: () => undefined,
    ...(continuationStore ? { continuationStore } : {})
  });
}
