import type { LogEntry } from '../inspector-protocol.js';
import { byId, el } from './dom.mjs';

/** Entries shown at most (the oldest go first). */
const SHOWN = 400;

/** The session's JSON-RPC log: each message with its direction, time and method; the whole message on demand. */
export class LogPanel {
  private readonly list = byId<HTMLOListElement>('log');
  private lastSeq = 0;

  /** Shows entries (those already shown are skipped: the state and the event stream may overlap). */
  add(entries: readonly LogEntry[]): void {
    const atBottom = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    for (const entry of entries) {
      if (entry.seq <= this.lastSeq) continue;
      this.lastSeq = entry.seq;
      const arrow = entry.direction === 'sent' ? '→ sent' : '← received';
      const what = entry.method ?? (entry.id !== undefined ? `response ${entry.id}` : 'message');
      const time = entry.time.slice(11, 23);
      this.list.append(
        el(
          'li',
          { class: entry.direction },
          el(
            'details',
            {},
            el(
              'summary',
              {},
              el('time', { datetime: entry.time }, time),
              el('span', { class: 'dir' }, arrow),
              ` ${what}${entry.method && entry.id !== undefined ? ` #${entry.id}` : ''}`
            ),
            el('pre', {}, pretty(entry.text))
          )
        )
      );
    }
    while (this.list.children.length > SHOWN) this.list.firstElementChild?.remove();
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
