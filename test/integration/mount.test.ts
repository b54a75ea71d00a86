import { IsInt, Min } from 'class-validator';
import {
  Action,
  ConfigurationError,
  FusionApp,
  Input,
  Mutation,
  ToolProvider,
  mount,
  type MiddlewareFn,
  type MutationLock,
  type Presenter
} from '../../src';
import { FifoMutex, namespacedName, namespacedUri, unnamespacedName, unnamespacedUri } from '../../src/advanced';
import { namespaceProblem } from '../../src/compose/namespace';
import { connectTestClient } from '../../src/testing';
import { DeskTools, Probe } from '../fixtures/desk-tools';
import { LateTools, Names, SurfaceTools } from '../fixtures/surface-tools';
import { recordWire, until } from '../helpers/wire-log';

const ERAS = ['modern', 'legacy-http', 'legacy-memory'] as const;
const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

class Posting {
  @IsInt() @Min(1) account!: number;
}

@ToolProvider()
class LedgerTools {
  @Mutation('post', { description: 'Posts to one account', serializeOn: (p: Posting) => `account:${p.account}`, scopes: ['ledger:write'] })
  post(@Input() posting: Posting) {
    return `posted to ${posting.account}`;
  }

  @Mutation('close', { description: 'Closes the books (app-wide)' })
  close() {
    return 'closed';
  }

  @Action('balance', { description: 'A balance' })
  balance() {
    return { cents: 1200 };
  }
}

/** A presenter of the mounted app: it says so. */
const ledgerPresenter: Presenter = {
  present: (value) => ({ content: [{ type: 'text', text: `ledger: ${JSON.stringify(value)}` }] })
};

/** The default lock behind a recorder of what is asked of it. */
class RecordingLock implements MutationLock {
  readonly asked: string[] = [];
  readonly inner = new FifoMutex();
  get locked() {
    return this.inner.locked;
  }
  acquire(signal: AbortSignal) {
    this.asked.push('app-wide');
    return this.inner.acquire(signal);
  }
  acquireKeys(keys: readonly string[], signal: AbortSignal) {
    this.asked.push(keys.join(','));
    return this.inner.acquireKeys(keys, signal);
  }
}

function composedApp(seen: string[] = []) {
  const probe = new Probe();
  const lock = new RecordingLock();
  const ledger = FusionApp.create({
    tools: [LedgerTools],
    presenter: ledgerPresenter,
    middleware: [async (ctx, next) => (seen.push(`ledger:${ctx.tool.name}`), next())]
  });
  const parentMiddleware: MiddlewareFn = async (ctx, next) => (seen.push(`parent:${ctx.tool.name}`), next());
  const app = FusionApp.create({
    tools: [DeskTools],
    providers: [{ provide: Probe, useValue: probe }],
    middleware: [parentMiddleware],
    mutationLock: lock,
    mounts: [mount('docs', { tools: [SurfaceTools], providers: [Names] }), mount('ledger', ledger)]
  });
  return { app, probe, lock, ledger };
}

describe('the naming rule (compose/namespace.ts)', () => {
  it('names tools and prompts <namespace>.<name> and prefixes the scheme with <namespace>+, both ways', () => {
    expect(namespacedName('desk', 'billing.refund')).toBe('desk.billing.refund');
    expect(unnamespacedName('desk', 'desk.billing.refund')).toBe('billing.refund');
    expect(unnamespacedName('desk', 'other.x')).toBeUndefined();
    for (const uri of [
      'billing://invoices/{id}',
      'demo://readme',
      'urn:isbn:123',
      'file:///etc/x',
      'ui://desk/main',
      'x://',
      'a://h/p?q=1#f'
    ]) {
      expect(unnamespacedUri('desk', namespacedUri('desk', uri))).toBe(uri);
      // Still a URI: its scheme carries the namespace, the rest is the member's own.
      if (!uri.includes('{')) {
        const [own, front] = [new URL(uri), new URL(namespacedUri('desk', uri))];
        expect([front.protocol, front.host, front.pathname, front.search, front.hash]).toEqual([
          `desk+${own.protocol}`,
          own.host,
          own.pathname,
          own.search,
          own.hash
        ]);
      }
    }
    expect(namespacedUri('desk', 'billing://invoices/{id}')).toBe('desk+billing://invoices/{id}');
    expect(namespacedUri('desk', 'urn:isbn:123')).toBe('desk+urn:isbn:123');
    expect(unnamespacedUri('desk', 'other+billing://1')).toBeUndefined();
    expect(unnamespacedUri('desk', 'billing://desk/1')).toBeUndefined();
  });

  it('accepts only namespaces that can head a URI scheme and are one segment of a tool name', () => {
    for (const ok of ['desk', 'a', 'desk-2', 'v2', 'a'.repeat(64)]) expect(namespaceProblem(ok)).toBeUndefined();
    for (const bad of ['', 'Desk', 'my_desk', 'a.b', 'a+b', '2desk', '-x', 'a/b', 'a'.repeat(65), 7, undefined]) {
      expect(namespaceProblem(bad)).toMatch(/must be a lowercase letter, then up to 63 lowercase letters, digits or "-"/);
    }
  });
});

describe('mount through a real SDK client', () => {
  for (const era of ERAS) {
    it(`${era}: lists and serves mounted members under their namespace, with the parent's middleware around the child's and its presenter kept`, async () => {
      const seen: string[] = [];
      const { app, ledger } = composedApp(seen);
      const { client, close } = await connectTestClient(app, { era });
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['echo', 'docs.logs', 'ledger.post', 'ledger.close', 'ledger.balance']));
      expect(tools).not.toContain('post');
      expect(text((await client.callTool({ name: 'ledger.balance', arguments: {} })) as never)).toBe('ledger: {"cents":1200}');
      expect(seen).toEqual(['parent:ledger.balance', 'ledger:ledger.balance']);
      // Resources, templates (with their list method), prompts and completions under the namespace.
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['docs+demo://readme', 'docs+demo://items/1']));
      const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
      expect(templates).toContain('docs+demo://items/{id}');
      const readme = await client.readResource({ uri: 'docs+demo://readme' });
      expect(readme.contents[0]).toMatchObject({ uri: 'docs+demo://readme', text: 'Hello from the readme.' });
      const item = await client.readResource({ uri: 'docs+demo://items/2' });
      expect(JSON.parse((item.contents[0] as { text: string }).text)).toEqual({ id: '2', label: 'Item 2' });
      await expect(client.readResource({ uri: 'demo://readme' })).rejects.toMatchObject({
        code: era === 'modern' ? -32602 : expect.any(Number)
      });
      const prompt = await client.getPrompt({ name: 'docs.greeting', arguments: { name: 'ada' } });
      expect(JSON.stringify(prompt.messages)).toContain('Please greet ada warmly.');
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'docs.greeting' },
        argument: { name: 'name', value: 'a' }
      });
      expect(completion.completion.values).toEqual(['ada', 'alan']);
      const itemIds = await client.complete({
        ref: { type: 'ref/resource', uri: 'docs+demo://items/{id}' },
        argument: { name: 'id', value: '1' }
      });
      expect(itemIds.completion.values).toEqual(['1', '2', '10']);
      await close();
      await app.close();
      await ledger.close();
    });
  }

  it("modern: a mounted mutation is serialized by the parent's lock, its keys kept; its scopes kept", async () => {
    const { app, probe, lock, ledger } = composedApp();
    const { client, close } = await connectTestClient(app);
    expect(text((await client.callTool({ name: 'ledger.post', arguments: { account: 7 } })) as never)).toBe('ledger: "posted to 7"');
    expect(lock.asked).toEqual(['account:7']);
    expect(app.describeChain('ledger.post')).toContain('scope-check');
    // The parent's app-wide mutation holds the lock: the mounted one waits for it.
    const controller = new AbortController();
    const holding = client.callTool({ name: 'lock.hold', arguments: {} }, { signal: controller.signal });
    await probe.entered;
    let closed = false;
    const closing = client.callTool({ name: 'ledger.close', arguments: {} }).then((r) => ((closed = true), r));
    await until(() => lock.inner.waiting === 1, 'the mounted mutation to wait for the lock');
    expect(lock.asked).toEqual(['account:7', 'app-wide', 'app-wide']);
    expect(closed).toBe(false);
    controller.abort();
    await expect(holding).rejects.toThrow();
    expect(text((await closing) as never)).toBe('ledger: "closed"');
    await close();
    await app.close();
    await ledger.close();
  });

  for (const era of ['legacy-memory', 'modern'] as const) {
    it(`${era}: a mounted app's change of tool classes is merged into the parent's lists (list_changed on a live channel)`, async () => {
      const { app, ledger } = composedApp();
      const { client, close } = await connectTestClient(app, { era });
      const log = recordWire(client);
      ledger.addTools(LateTools);
      if (era === 'legacy-memory')
        await until(() => log.some((m) => m.method === 'notifications/tools/list_changed'), 'tools/list_changed');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('ledger.late');
      expect(text((await client.callTool({ name: 'ledger.late', arguments: {} })) as never)).toBe('ledger: "late"');
      ledger.removeTools(LateTools);
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('ledger.late');
      await close();
      await app.close();
      await ledger.close();
    });
  }

  it("legacy-memory: a mounted app's resource update reaches the parent's subscribers under the namespaced URI", async () => {
    const docs = FusionApp.create({ tools: [SurfaceTools], providers: [Names] });
    const app = FusionApp.create({ tools: [], mounts: [mount('docs', docs)] });
    const { client, close } = await connectTestClient(app, { era: 'legacy-memory' });
    const log = recordWire(client);
    await client.subscribeResource({ uri: 'docs+demo://readme' });
    docs.notifyResourceUpdated('demo://readme');
    await until(() => log.some((m) => m.method === 'notifications/resources/updated'), 'resources/updated');
    expect(log.filter((m) => m.method === 'notifications/resources/updated').map((m) => m.params)).toEqual([{ uri: 'docs+demo://readme' }]);
    await close();
    await app.close();
    await docs.close();
  });

  it('refuses a name or URI clash at startup naming both sides, and a bad namespace', () => {
    @ToolProvider()
    class Clashing {
      @Action('ledger.balance', { description: 'Same name as the mounted one' })
      balance() {
        return 1;
      }
    }
    const ledger = FusionApp.create({ tools: [LedgerTools] });
    expect(() => FusionApp.create({ tools: [Clashing], mounts: [mount('ledger', ledger)] })).toThrow(
      /tool ledger\.balance is both Clashing\.balance \(the app\) and LedgerTools\.balance \(mounted under ledger\)/
    );
    expect(() => FusionApp.create({ tools: [], mounts: [mount('a.b', { tools: [LedgerTools] })] })).toThrow(ConfigurationError);
    expect(() => FusionApp.create({ tools: [], mounts: [mount('My_Desk', { tools: [LedgerTools] })] })).toThrow(
      /mount: namespace "My_Desk" must be a lowercase letter/
    );
    expect(() => FusionApp.create({ tools: [], mounts: [mount('x', { tools: [LedgerTools] }), mount('x', { tools: [] })] })).toThrow(
      /mounted twice/
    );
  });
});
