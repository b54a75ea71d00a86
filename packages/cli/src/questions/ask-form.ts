import { checkbox, confirm, input, select } from '@inquirer/prompts';
import type { PropertySchema } from '../schema-values';
import { choicesOf, parseValue, typesOf } from '../schema-values';
import { paint, type Terminal } from '../terminal';
import { fieldHint, multiSelectChoices, validateChoices, validateFieldText, type FormSchema } from './form-answers';
import { askYesNo, isYesNo } from './ask-yes-no';
import type { Reply } from './reply';

export type { Reply } from './reply';

/** The user's reply to a question, as an elicitation result carries it. */

/** Prompts read the terminal's stdin and draw on its stderr (stdout carries the result). */
function context(terminal: Terminal): { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } {
  return { input: terminal.in, output: terminal.err };
}

/** First the choice to answer, decline or cancel the question (answer by default). */
async function chooseReply(terminal: Terminal, answerLabel: string): Promise<'accept' | 'decline' | 'cancel'> {
  return select(
    {
      message: 'Your reply',
      choices: [
        { name: answerLabel, value: 'accept' as const },
        { name: 'Decline (say no to the request)', value: 'decline' as const },
        { name: 'Cancel (dismiss it without a choice)', value: 'cancel' as const }
      ]
    },
    context(terminal)
  );
}

/**
 * Asks a form question at the terminal (with @inquirer/prompts). A question whose one open
 * field is a yes/no is asked in one step ({@link askYesNo}: `? Refund €1,300.00 to Globex Ltd?
 * (y/N)`). Any other: the message, the reply (answer / decline / cancel), then each open field
 * from its schema: booleans as yes/no, enums as a choice list, multi-selects as checkboxes,
 * numbers and strings typed and checked against their bounds and formats before anything is sent.
 */
export async function askForm(
  terminal: Terminal,
  message: string,
  schema: FormSchema,
  open: readonly string[],
  preset: Record<string, unknown>
): Promise<Reply> {
  const only = open.length === 1 ? schema.properties?.[open[0]] : undefined;
  if (only && isYesNo(only)) {
    terminal.err.write('\n');
    const reply = await askYesNo(terminal, message, open[0], only);
    return reply.action === 'accept' ? { action: 'accept', content: { ...preset, ...reply.content } } : reply;
  }
  terminal.err.write(`\n${paint(terminal, 'yellow', '?')} ${paint(terminal, 'bold', message)}\n`);
  const reply = await chooseReply(terminal, open.length ? 'Answer' : 'Accept');
  if (reply !== 'accept') return { action: reply };
  const required = new Set(schema.required ?? []);
  const content: Record<string, unknown> = { ...preset };
  for (const name of open) {
    const property = schema.properties?.[name] ?? {};
    const value = await askField(terminal, name, property, required.has(name));
    if (value !== undefined) content[name] = value;
  }
  return { action: 'accept', content };
}

async function askField(terminal: Terminal, name: string, schema: PropertySchema, required: boolean): Promise<unknown> {
  const label = `${schema.title ?? schema.description ?? name}${schema.title && schema.description ? paint(terminal, 'dim', ` (${schema.description})`) : ''}`;
  const types = typesOf(schema);
  const choices = choicesOf(schema);
  if (choices) {
    return select(
      {
        message: label,
        choices: choices.map((choice) => ({ name: choice.title, value: choice.value })),
        ...(schema.default !== undefined ? { default: schema.default } : {})
      },
      context(terminal)
    );
  }
  const many = multiSelectChoices(schema);
  if (many) {
    const defaults = Array.isArray(schema.default) ? (schema.default as unknown[]) : [];
    return checkbox(
      {
        message: label,
        choices: many.map((choice) => ({ name: choice.title, value: choice.value, checked: defaults.includes(choice.value) })),
        validate: (picked: ReadonlyArray<{ value: unknown }>) =>
          validateChoices(
            name,
            schema,
            picked.map((p) => p.value)
          )
      },
      context(terminal)
    );
  }
  if (types.includes('boolean')) {
    return confirm({ message: label, default: typeof schema.default === 'boolean' ? schema.default : false }, context(terminal));
  }
  const hint = fieldHint(schema);
  const text = await input(
    {
      message: `${label}${hint ? ` ${paint(terminal, 'dim', hint)}` : ''}${required ? '' : paint(terminal, 'dim', ' (optional)')}`,
      ...(schema.default !== undefined ? { default: String(schema.default) } : {}),
      validate: (typed: string) => validateFieldText(name, schema, typed, required)
    },
    context(terminal)
  );
  if (text === '' && !required) return undefined;
  return parseValue(name, schema, text);
}

/** Asks the user to open a URL and confirm they visited it (URL elicitation). */
export async function askUrl(terminal: Terminal, message: string, url: string): Promise<Reply> {
  terminal.err.write(`\n${paint(terminal, 'yellow', '?')} ${paint(terminal, 'bold', message)}\n  Open: ${paint(terminal, 'cyan', url)}\n`);
  const reply = await chooseReply(terminal, 'Done: I opened the URL and finished there');
  return { action: reply };
}
