import { paint, note, type Terminal } from '../terminal';
import { askForm, askUrl, type Reply } from './ask-form';
import { applyPresets, type FormSchema, type PresetAnswers } from './form-answers';

/** An elicitation request's params (form or URL), as the SDK hands them to the handler. */
export interface QuestionParams {
  mode?: string;
  message: string;
  requestedSchema?: FormSchema;
  url?: string;
}

/** What the call around a question does while the prompt has the terminal. */
export interface QuestionHooks {
  /** Before a prompt: the progress display and the Ctrl-C listener step aside (keys typed until then are dropped). */
  before(): void | Promise<void>;
  /** After a prompt. */
  after(): void;
  /** Ctrl-C was pressed inside a prompt. */
  interrupted(): void;
}

function isPromptExit(error: unknown): boolean {
  return error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError');
}

/**
 * Answers the server's questions, the same for a live `elicitation/create` (2025 era) and an
 * input request of an MRTR round (2026-07-28: the SDK's driver calls the same handler): from
 * `--answer` presets when they cover the question, else at the prompt when there is a
 * terminal, else declined with a note saying how to answer. Questions are asked one at a time.
 */
export function questionHandler(
  terminal: Terminal,
  presets: PresetAnswers,
  hooks: QuestionHooks
): (params: QuestionParams) => Promise<Reply> {
  let queue: Promise<unknown> = Promise.resolve();
  const answer = async (params: QuestionParams): Promise<Reply> => {
    if (presets.reply) {
      note(terminal, `${paint(terminal, 'yellow', '?')} ${params.message} ${paint(terminal, 'dim', `(--answer ${presets.reply})`)}`);
      return { action: presets.reply };
    }
    if (params.mode === 'url') {
      if (presets.fields.has('url')) {
        note(
          terminal,
          `${paint(terminal, 'yellow', '?')} ${params.message}\n  ${params.url ?? ''} ${paint(terminal, 'dim', '(--answer url=…: accepted)')}`
        );
        return { action: 'accept' };
      }
      if (!terminal.interactive)
        return declined(terminal, params.message, 'open the URL, then run the call again with --answer url=done', params.url);
      return prompted(() => askUrl(terminal, params.message, params.url ?? ''));
    }
    const schema = params.requestedSchema ?? {};
    const { content, open, openRequired } = applyPresets(schema, presets);
    const presetGiven = Object.keys(content).length > 0;
    if ((presetGiven || open.length === 0) && openRequired.length === 0 && (!terminal.interactive || presetGiven)) {
      note(
        terminal,
        `${paint(terminal, 'yellow', '?')} ${params.message} ${paint(terminal, 'dim', `(answered: ${JSON.stringify(content)})`)}`
      );
      return { action: 'accept', content };
    }
    if (!terminal.interactive) {
      const names = (openRequired.length ? openRequired : open).map((name) => `--answer ${name}=…`).join(' ');
      return declined(terminal, params.message, `answer it with ${names || '--answer name=value'} (or run in a terminal)`);
    }
    return prompted(() => askForm(terminal, params.message, schema, open, content));
  };
  const prompted = async (ask: () => Promise<Reply>): Promise<Reply> => {
    try {
      return await ask();
    } catch (error) {
      if (!isPromptExit(error)) throw error;
      hooks.interrupted();
      return { action: 'cancel' };
    }
  };
  // Notes and prompts alike take the display off the screen first (it would draw over them).
  const around = async (params: QuestionParams): Promise<Reply> => {
    await hooks.before();
    try {
      return await answer(params);
    } finally {
      hooks.after();
    }
  };
  return (params) => {
    const next = queue.then(() => around(params));
    queue = next.catch(() => undefined);
    return next;
  };
}

function declined(terminal: Terminal, message: string, how: string, url?: string): Reply {
  note(terminal, `${paint(terminal, 'yellow', '?')} ${message}${url ? `\n  ${url}` : ''}`);
  note(terminal, `  declined: no terminal to ask the question; ${how}`);
  return { action: 'decline' };
}
