import type { DevCallTimings, DevReload } from '../inspector-protocol.js';
import { byId, el } from './dom.mjs';

/** The `mcpfusion dev` panel: the selected member's compiled chain, each call's stage timings, the reloads. */
export class DevPanel {
  private readonly chain = byId<HTMLOListElement>('dev-chain');
  private readonly timings = byId<HTMLUListElement>('dev-timings');
  private readonly reload = byId('dev-reload');

  constructor(enabled: boolean) {
    byId('dev-panel').hidden = !enabled;
  }

  showChain(stages: readonly string[] | null): void {
    this.chain.replaceChildren(...(stages ?? ['(no chain: not a member of the dev project)']).map((stage) => el('li', {}, stage)));
  }

  addTimings(timings: DevCallTimings): void {
    const total = timings.stages.reduce((sum, stage) => sum + stage.ms, 0);
    this.timings.prepend(
      el(
        'li',
        {},
        `${timings.kind} ${timings.name}: ${total.toFixed(1)} ms (`,
        timings.stages.map((stage) => `${stage.stage} ${stage.ms.toFixed(1)}`).join(', '),
        ')'
      )
    );
    while (this.timings.children.length > 50) this.timings.lastElementChild?.remove();
  }

  showReload(reload: DevReload): void {
    this.reload.classList.toggle('bad', !reload.ok);
    this.reload.textContent = reload.ok
      ? `reloaded at ${new Date().toLocaleTimeString()}`
      : `the edit does not compile; the previous code still serves:\n${(reload.errors ?? []).join('\n')}`;
  }
}
