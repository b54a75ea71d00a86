import { ConfigurationError, FusionApp } from '../../../src';
import type { Gateway, MemberSource } from '../../../src/advanced';

/**
 * The app reads a gateway's members from its `memberSource` (no table of gateways behind it):
 * an object with one is served, whoever made it; one without is refused at startup, saying what to pass.
 */
describe('gateways: [...] reads each gateway’s memberSource', () => {
  it('refuses a value with no member source, naming it', () => {
    for (const bad of [{ label: 'x', namespace: undefined, waitingQuestions: 0, close: () => Promise.resolve() }, null, 'desk'])
      expect(() => FusionApp.create({ tools: [], gateways: [bad as unknown as Gateway], logger: () => undefined })).toThrow(
        ConfigurationError
      );
    expect(() => FusionApp.create({ tools: [], gateways: [{} as Gateway], logger: () => undefined })).toThrow(/has no member source/);
  });

  it('serves a source of its own, follows its changes and closes it with the app', async () => {
    const seen: string[] = [];
    let listener: { listChanged(): void } | undefined;
    const source: MemberSource = {
      label: 'own source',
      tools: () => [],
      subscribe: (l) => {
        listener = l;
        seen.push('subscribed');
        return () => seen.push('unsubscribed');
      },
      close: () => {
        seen.push('source closed');
        return Promise.resolve();
      }
    };
    const gateway: Gateway = {
      label: 'own',
      namespace: undefined,
      waitingQuestions: 0,
      memberSource: source,
      close: () => {
        seen.push('gateway closed');
        return Promise.resolve();
      }
    };
    const app = FusionApp.create({ tools: [], gateways: [gateway], logger: () => undefined });
    expect(app.listTools()).toEqual([]);
    listener!.listChanged();
    await app.close();
    expect(seen).toEqual(['subscribed', 'unsubscribed', 'gateway closed']);
  });
});
