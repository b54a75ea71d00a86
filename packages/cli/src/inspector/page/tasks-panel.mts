import type { TaskState } from '../inspector-protocol.js';
import { byId, el } from './dom.mjs';

/** A call's tasks (the tasks extension): status, status message (its progress) and a way to cancel each. */
export class TasksPanel {
  private readonly panel = byId('tasks-panel');
  private readonly list = byId<HTMLUListElement>('tasks');
  private readonly rows = new Map<string, HTMLLIElement>();

  constructor(private readonly cancel: (callId: string) => void) {}

  /** Shown when the server offers the tasks extension. */
  show(offered: boolean): void {
    this.panel.hidden = !offered;
  }

  update(task: TaskState): void {
    let row = this.rows.get(task.taskId);
    if (!row) {
      row = el('li', { 'aria-label': `Task ${task.taskId}` });
      this.rows.set(task.taskId, row);
      this.list.prepend(row);
    }
    const done = ['completed', 'failed', 'cancelled'].includes(task.status);
    const cancel = el('button', { type: 'button', 'aria-label': `Cancel task ${task.taskId}` }, 'Cancel task');
    cancel.addEventListener('click', () => {
      cancel.disabled = true;
      this.cancel(task.callId);
    });
    row.replaceChildren(
      el('div', {}, el('code', {}, task.tool), ' '),
      el('div', {}, 'status: ', el('span', { class: 'status' }, task.status)),
      ...(task.statusMessage ? [el('div', { class: 'muted' }, task.statusMessage)] : []),
      el('div', { class: 'muted mono' }, task.taskId),
      ...(done ? [] : [cancel])
    );
  }
}
