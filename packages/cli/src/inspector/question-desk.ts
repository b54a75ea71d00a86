import type { Answer, Question } from './inspector-protocol';

/** An `elicitation/create` request's params, as the server sent them (untrusted). */
export interface QuestionParams {
  readonly mode?: string;
  readonly message?: unknown;
  readonly requestedSchema?: unknown;
  readonly url?: unknown;
}

interface Pending {
  readonly question: Question;
  readonly settle: (answer: Answer) => void;
}

/**
 * The server's questions waiting for the person at the page. A question is shown on every open
 * page (the `question` event) and settled by the first answer; one whose request is aborted
 * (the call was cancelled, the connection closed) is answered `cancel` and taken off the pages.
 */
export class QuestionDesk {
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;

  constructor(
    private readonly shown: (question: Question) => void,
    private readonly closed: (questionId: string) => void
  ) {}

  /** The questions not answered yet (for a page that loads). */
  open(): Question[] {
    return [...this.pending.values()].map((entry) => entry.question);
  }

  /** Shows the question and waits for its answer; `signal` ends the wait with `cancel`. */
  ask(params: QuestionParams, signal?: AbortSignal): Promise<Answer> {
    const questionId = `q${this.nextId++}`;
    const url = params.mode === 'url' && typeof params.url === 'string' ? params.url : undefined;
    const schema = params.requestedSchema;
    const question: Question = {
      questionId,
      message: typeof params.message === 'string' ? params.message : '(the server sent no message)',
      mode: url !== undefined ? 'url' : 'form',
      ...(typeof schema === 'object' && schema !== null && !Array.isArray(schema)
        ? { requestedSchema: schema as Record<string, unknown> }
        : {}),
      ...(url !== undefined ? { url } : {})
    };
    return new Promise<Answer>((resolve) => {
      if (signal?.aborted) return resolve({ action: 'cancel' });
      const onAbort = (): void => {
        this.answer(questionId, { action: 'cancel' });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(questionId, {
        question,
        settle: (answer) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(answer);
        }
      });
      this.shown(question);
    });
  }

  /** Settles a question; false when it is not waiting (answered already, or unknown). */
  answer(questionId: string, answer: Answer): boolean {
    const entry = this.pending.get(questionId);
    if (!entry) return false;
    this.pending.delete(questionId);
    entry.settle(answer);
    this.closed(questionId);
    return true;
  }

  /** Answers every waiting question `cancel` (the connection is going away). */
  cancelAll(): void {
    for (const questionId of [...this.pending.keys()]) this.answer(questionId, { action: 'cancel' });
  }
}

/** Reads the page's answer (untrusted JSON): an {@link Answer}, or undefined when malformed. */
export function readAnswer(value: unknown): Answer | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { action, content } = value as { action?: unknown; content?: unknown };
  if (action === 'decline' || action === 'cancel') return { action };
  if (action !== 'accept') return undefined;
  if (content === undefined) return { action };
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return undefined;
  return { action, content: content as Record<string, unknown> };
}
