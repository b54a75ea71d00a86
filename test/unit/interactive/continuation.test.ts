import { createHash } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FusionApp, SignedContinuationStore, ask, requireInput, type ContinuationStore } from '../../../src';
import { firstEntry, resume, seal, type ContinuationBinding } from '../../../src/interactive/continuation';
import { InteractiveTools, Ledger } from '../../fixtures/interactive-tools';

const KEY = 's'.repeat(32);
const ALICE = 'alice-oauth-client-7f3e';
const confirm = requireInput.elicit('Refund?', { confirm: ask.boolean('Approve') });
const asAlice: ContinuationBinding = { name: 'refund', args: { id: 1 }, principal: ALICE };
const asMallory: ContinuationBinding = { ...asAlice, principal: 'mallory' };
const anonymous: ContinuationBinding = { ...asAlice, principal: null };
const yes = { input: { action: 'accept', content: { confirm: true } } };

/** What anyone holding the token reads: the SDK codec's body, base64url-decoded. */
function decoded(token: string): string {
  const [, body] = token.split('.');
  return Buffer.from(body, 'base64url').toString('utf8');
}

describe('continuation state: the caller is bound by a keyed digest', () => {
  it('the principal does not appear in the decoded token; a keyed digest stands in for it', async () => {
    const store = new SignedContinuationStore(KEY, 60);
    const token = await seal(store, asAlice, firstEntry(), confirm);
    const body = decoded(token);
    expect(body).not.toContain(ALICE);
    expect(body).not.toContain(Buffer.from(ALICE).toString('base64url'));
    const { p: payload } = JSON.parse(body) as { p: { p: unknown } };
    expect(payload.p).toBe(await store.bindingTag(ALICE));
    expect(payload.p).toMatch(/^[A-Za-z0-9_-]{43}$/); // HMAC-SHA256, base64url
  });

  it('the digest is keyed: another state key gives another digest, the same key the same one (several instances)', async () => {
    const one = new SignedContinuationStore(KEY, 60);
    const sameKey = new SignedContinuationStore(KEY, 60);
    const otherKey = new SignedContinuationStore('o'.repeat(32), 60);
    expect(await sameKey.bindingTag(ALICE)).toBe(await one.bindingTag(ALICE));
    expect(await otherKey.bindingTag(ALICE)).not.toBe(await one.bindingTag(ALICE));
    expect(await one.bindingTag('mallory')).not.toBe(await one.bindingTag(ALICE));
    // Not an unkeyed hash of the principal, which anyone could compute from a guess.
    expect(await one.bindingTag(ALICE)).not.toBe(createHash('sha256').update(ALICE).digest('base64url'));
    // A state minted by one instance resumes on another that shares the key.
    const token = await seal(one, asAlice, firstEntry(), confirm);
    await expect(resume(sameKey, asAlice, token, yes)).resolves.toMatchObject({ kind: 'run', position: { answers: { confirm: true } } });
  });

  it('a state minted for alice resumes for alice and is refused for mallory and for an anonymous caller', async () => {
    const store = new SignedContinuationStore(KEY, 60);
    const token = await seal(store, asAlice, firstEntry(), confirm);
    await expect(resume(store, asMallory, token, yes)).rejects.toThrow('Invalid or expired requestState: it was issued to another caller');
    await expect(resume(store, anonymous, token, yes)).rejects.toThrow(/it was issued to another caller/);
    await expect(resume(store, asAlice, token, yes)).resolves.toMatchObject({
      kind: 'run',
      position: { round: 1, answers: { confirm: true } }
    });
  });

  it('a state minted without a caller is refused for a caller, and resumes without one', async () => {
    const store = new SignedContinuationStore(KEY, 60);
    const token = await seal(store, anonymous, firstEntry(), confirm);
    expect((JSON.parse(decoded(token)) as { p: { p: unknown } }).p.p).toBeNull();
    await expect(resume(store, asAlice, token, yes)).rejects.toThrow(/it was issued to another caller/);
    await expect(resume(store, anonymous, token, {})).resolves.toMatchObject({ kind: 'reask' });
  });

  it('seal and resume carry the round, the answers and the handler state; the other bindings still hold', async () => {
    const store = new SignedContinuationStore(KEY, 60);
    const withState = requireInput.elicit('Refund?', { confirm: ask.boolean('Approve') }, { state: { step: 2 } });
    const token = await seal(store, asAlice, firstEntry(), withState);
    const resumed = await resume(store, asAlice, token, yes);
    expect(resumed).toMatchObject({ kind: 'run', position: { round: 1, answers: { confirm: true }, state: { step: 2 } } });
    await expect(resume(store, { ...asAlice, name: 'other' }, token, yes)).rejects.toThrow(/issued for another tool/);
    await expect(resume(store, { ...asAlice, args: { id: 2 } }, token, yes)).rejects.toThrow(/issued for other arguments/);
    await expect(resume(store, asAlice, undefined, yes)).resolves.toMatchObject({ kind: 'run', position: { round: 0 } });
  });

  it('a state in the previous format (the caller in clear) is refused as unrecognized', async () => {
    const store = new SignedContinuationStore(KEY, 60);
    const old = await store.seal({ v: 1, t: 'refund', d: 'x', p: ALICE, r: 1, a: {}, st: {}, q: [] });
    await expect(resume(store, asAlice, old, yes)).rejects.toThrow(/unrecognized state/);
  });

  it("a custom store's bindingTag is what the payload carries; a store without one still binds the caller", async () => {
    const kept = new Map<string, unknown>();
    const opaque: ContinuationStore = {
      seal: async (payload) => {
        const id = `state-${kept.size}`;
        kept.set(id, payload);
        return id;
      },
      open: async (id) => {
        if (!kept.has(id)) throw new Error('unknown');
        return kept.get(id);
      }
    };
    const tagged: ContinuationStore = { ...opaque, bindingTag: async (value) => `tag:${value.length}` };
    const token = await seal(tagged, asAlice, firstEntry(), confirm);
    expect((kept.get(token) as { p: unknown }).p).toBe(`tag:${ALICE.length}`);
    await expect(resume(tagged, asMallory, token, yes)).rejects.toThrow(/it was issued to another caller/);
    await expect(resume(tagged, asAlice, token, yes)).resolves.toMatchObject({ kind: 'run' });
    // Without bindingTag the store keeps the caller as given (it holds the payload, not the client).
    const plain = await seal(opaque, asAlice, firstEntry(), confirm);
    expect((kept.get(plain) as { p: unknown }).p).toBe(ALICE);
    await expect(resume(opaque, asMallory, plain, yes)).rejects.toThrow(/it was issued to another caller/);
    await expect(resume(opaque, asAlice, plain, yes)).resolves.toMatchObject({ kind: 'run' });
  });
});

describe('continuation state through the app: bound to the OAuth client id (the default principalOf)', () => {
  /** A 2026-era client over the app's HTTP handler, authenticated as whoever `as.clientId` names at each request. */
  async function clientAs(app: FusionApp, as: { clientId: string }) {
    const handler = app.createHttpHandler();
    const client = new Client(
      { name: 'manual', version: '1' },
      {
        capabilities: { elicitation: { form: {}, url: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: false }
      }
    );
    const fetch = (url: string | URL, init?: RequestInit) =>
      handler.fetch(new Request(url, init), { authInfo: { token: 'opaque', clientId: as.clientId, scopes: [] } });
    await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch }));
    const call = (params: Record<string, unknown>) =>
      client.callTool(params as { name: string; arguments: Record<string, unknown> }, { allowInputRequired: true } as never) as Promise<
        Record<string, unknown>
      >;
    return { client, call };
  }

  it('the token a client holds does not name it; replayed by another client it is refused and nothing is refunded', async () => {
    const ledger = new Ledger();
    const app = FusionApp.create({ tools: [InteractiveTools], providers: [{ provide: Ledger, useValue: ledger }], stateKey: KEY });
    const as = { clientId: ALICE };
    const { client, call } = await clientAs(app, as);
    const first = await call({ name: 'refund', arguments: { amount: 5 } });
    expect(first.resultType).toBe('input_required');
    const state = first.requestState as string;
    expect(decoded(state)).not.toContain(ALICE);

    as.clientId = 'mallory';
    const confirmYes = { input: { action: 'accept', content: { confirm: true } } };
    await expect(call({ name: 'refund', arguments: { amount: 5 }, inputResponses: confirmYes, requestState: state })).rejects.toThrow(
      /issued to another caller/
    );
    expect(ledger.refunds).toEqual([]);

    as.clientId = ALICE;
    const done = await call({ name: 'refund', arguments: { amount: 5 }, inputResponses: confirmYes, requestState: state });
    expect(done.content).toEqual([{ type: 'text', text: 'Refunded $5' }]);
    expect(ledger.refunds).toEqual([5]);
    await client.close();
    await app.close();
  });
});
