import { confirm } from '@inquirer/prompts';
import type { PropertySchema } from '../schema-values';
import type { Terminal } from '../terminal';
import type { Reply } from './reply';

const ESC = '\u001b';
const CTRL_D = '\u0004';

/**
 * Whether a question is a plain yes/no: one field left to answer, a boolean without a list
 * of choices. Such a question is asked in one step, the message itself as the yes/no.
 */
export function isYesNo(schema: PropertySchema | undefined): boolean {
  if (!schema) return false;
  const type = schema.type;
  return (type === 'boolean' || (Array.isArray(type) && type.length === 1 && type[0] === 'boolean')) && schema.enum === undefined;
}

/**
 * A single yes/no question in one step: `? Refund €1,300.00 to Globex Ltd? (y/N)`. Enter takes
 * the default (the field's, else no), `y` Enter answers yes and `n` Enter no (both accept the
 * request with that value); Esc or Ctrl-D declines the request; Ctrl-C ends the prompt the way
 * every prompt's Ctrl-C does (the caller cancels the request and the call).
 */
export async function askYesNo(terminal: Terminal, message: string, field: string, schema: PropertySchema): Promise<Reply> {
  const declining = new AbortController();
  // A lone Esc (an arrow key is Esc and more, in the same chunk) or Ctrl-D: the prompt has no key for "decline".
  const onData = (chunk: Buffer | string): void => {
    const text = chunk.toString();
    if (text === ESC || text === CTRL_D) declining.abort();
  };
  terminal.in.on('data', onData);
  try {
    const yes = await confirm(
      { message, default: typeof schema.default === 'boolean' ? schema.default : false },
      { input: terminal.in, output: terminal.err, signal: declining.signal }
    );
    return { action: 'accept', content: { [field]: yes } };
  } catch (error) {
    if (declining.signal.aborted && error instanceof Error && error.name === 'AbortPromptError') {
      terminal.err.write('  declined\n');
      return { action: 'decline' };
    }
    throw error;
  } finally {
    terminal.in.off('data', onData);
  }
}
