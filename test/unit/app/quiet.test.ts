/** A framework used as documented prints nothing a user would mistake for a failure. */
describe('quiet by default', () => {
  it('the state-key warning: only for an interactive app set up to share work with other instances, with no key, once per process', () => {
    jest.isolateModules(() => {
      // A fresh copy of the framework: the warning has not been given in this "process" yet.
      const { FusionApp } = require('../../../src') as typeof import('../../../src');
      const { FifoMutex } = require('../../../src/advanced') as typeof import('../../../src/advanced');
      const { InteractiveTools, Ledger } = require('../../fixtures/interactive-tools') as typeof import('../../fixtures/interactive-tools');
      const { DeskTools, Probe } = require('../../fixtures/desk-tools') as typeof import('../../fixtures/desk-tools');
      const logged: string[] = [];
      const logger = (message: string) => logged.push(message);
      const previous = process.env.FUSION_STATE_KEY;
      delete process.env.FUSION_STATE_KEY;
      const interactive = { tools: [InteractiveTools], providers: [{ provide: Ledger, useValue: new Ledger() }], logger };
      try {
        const plain = FusionApp.create({ tools: [DeskTools], providers: [{ provide: Probe, useValue: new Probe() }], logger });
        // One process (stdio, a single HTTP server, a test): a random key is all it needs.
        const alone = [1, 2].map(() => FusionApp.create(interactive));
        expect(logged).toEqual([]);
        // A lock of its own (Redis's, in a fleet) says other instances may continue its calls: they need the same key.
        const fleet = [1, 2, 3].map(() => FusionApp.create({ ...interactive, mutationLock: new FifoMutex() }));
        expect(logged.filter((m) => m.startsWith('No state key'))).toHaveLength(1);
        const keyed = FusionApp.create({ ...interactive, mutationLock: new FifoMutex(), stateKey: 'q'.repeat(32) });
        expect(logged).toHaveLength(1);
        for (const app of [plain, keyed, ...alone, ...fleet]) void app.close();
      } finally {
        if (previous !== undefined) process.env.FUSION_STATE_KEY = previous;
      }
    });
  });

  it('JSON response mode does not print the SDK console warning', () => {
    const warn = jest.spyOn(console, 'warn');
    jest.isolateModules(() => {
      const { FusionApp } = require('../../../src') as typeof import('../../../src');
      const { DeskTools, Probe } = require('../../fixtures/desk-tools') as typeof import('../../fixtures/desk-tools');
      const logged: string[] = [];
      const app = FusionApp.create({
        tools: [DeskTools],
        providers: [{ provide: Probe, useValue: new Probe() }],
        logger: (m) => logged.push(m)
      });
      const handler = app.createHttpHandler({ responseMode: 'json' });
      expect(warn).not.toHaveBeenCalled();
      expect(logged).toEqual([]);
      void handler.close();
      void app.close();
    });
    warn.mockRestore();
  });
});
