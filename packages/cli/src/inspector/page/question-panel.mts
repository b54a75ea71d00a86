import type { Answer, Question } from '../inspector-protocol.js';
import type { Backend } from './backend.mjs';
import { byId } from './dom.mjs';
import { buildSchemaFields, type SchemaFields } from './schema-form.mjs';

/**
 * The server's questions (an elicitation, or a request of a 2026-07-28 input round or task),
 * one at a time: the message, a labelled field per requested property, and Accept, Decline,
 * Cancel. A question taken back by the server side (its call was cancelled) leaves the panel.
 */
export class QuestionPanel {
  private readonly dialog = byId<HTMLDialogElement>('question');
  private readonly form = byId<HTMLFormElement>('question-form');
  private readonly problem = byId('question-problem');
  private readonly waiting: Question[] = [];
  private current: { question: Question; fields: SchemaFields } | undefined;

  constructor(private readonly backend: Backend) {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (!this.current) return;
      const reading = this.current.fields.read();
      if (!reading.ok) {
        this.problem.textContent = reading.problem;
        return;
      }
      this.settle(this.current.question.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: reading.value });
    });
    byId('question-decline').addEventListener('click', () => this.settle({ action: 'decline' }));
    byId('question-cancel').addEventListener('click', () => this.settle({ action: 'cancel' }));
  }

  ask(question: Question): void {
    if (this.current?.question.questionId === question.questionId || this.waiting.some((q) => q.questionId === question.questionId)) return;
    this.waiting.push(question);
    if (!this.current) this.next();
  }

  /** The question is answered (here or on another page) or taken back. */
  closed(questionId: string): void {
    const index = this.waiting.findIndex((q) => q.questionId === questionId);
    if (index >= 0) this.waiting.splice(index, 1);
    if (this.current?.question.questionId === questionId) {
      this.current = undefined;
      this.next();
    }
  }

  private next(): void {
    const question = this.waiting.shift();
    if (!question) {
      this.dialog.close();
      return;
    }
    byId('question-message').textContent = question.message;
    const link = byId('question-link');
    link.hidden = question.mode !== 'url';
    if (question.url) {
      const anchor = byId<HTMLAnchorElement>('question-url');
      anchor.textContent = question.url;
      anchor.href = /^https?:\/\//.test(question.url) ? question.url : '#';
    }
    this.problem.textContent = '';
    const fields = buildSchemaFields(byId('question-fields'), question.mode === 'form' ? question.requestedSchema : {});
    if (question.mode === 'url') byId('question-fields').replaceChildren();
    this.current = { question, fields };
    if (!this.dialog.open) this.dialog.show();
    fields.focus();
  }

  private settle(answer: Answer): void {
    if (!this.current) return;
    const { questionId } = this.current.question;
    void this.backend.answer(questionId, answer).catch((error: unknown) => (this.problem.textContent = String(error)));
    this.closed(questionId);
  }
}
