/**
 * The table of the methods that address one member (src/transports/member-methods.ts): which
 * member each one names, read from untrusted params, and the scopes the HTTP auth gate reads
 * through it. The server factory registers its handlers from the same table (its handler map is
 * typed by the table's keys); the integration tests in auth-scopes.test.ts drive both over HTTP.
 */
import { MEMBER_METHOD_NAMES, memberTargetOf, scopesOfRequest, type MemberTarget } from '../../../src/transports/member-methods';

describe('MEMBER_METHODS: the member a request names', () => {
  it('lists every method that runs or follows one member, and nothing else', () => {
    expect([...MEMBER_METHOD_NAMES].sort()).toEqual([
      'completion/complete',
      'prompts/get',
      'resources/read',
      'resources/subscribe',
      'tools/call'
    ]);
  });

  it('reads a tool or prompt by name, a resource by URI, a completion by its ref', () => {
    // A tool's target carries its raw arguments: the call tool of `toolSearch` needs the scopes of the tool they name.
    expect(memberTargetOf({ method: 'tools/call', params: { name: 'billing.refund', arguments: {} } })).toEqual({
      kind: 'tool',
      name: 'billing.refund',
      arguments: {}
    });
    expect(memberTargetOf({ method: 'prompts/get', params: { name: 'summary' } })).toEqual({ kind: 'prompt', name: 'summary' });
    expect(memberTargetOf({ method: 'resources/read', params: { uri: 'demo://items/1' } })).toEqual({
      kind: 'resource',
      uri: 'demo://items/1'
    });
    expect(memberTargetOf({ method: 'resources/subscribe', params: { uri: 'demo://readme' } })).toEqual({
      kind: 'resource',
      uri: 'demo://readme'
    });
    expect(
      memberTargetOf({
        method: 'completion/complete',
        params: { ref: { type: 'ref/prompt', name: 'summary' }, argument: { name: 'x', value: '' } }
      })
    ).toEqual({ kind: 'completion', of: 'prompt', name: 'summary' });
    expect(memberTargetOf({ method: 'completion/complete', params: { ref: { type: 'ref/resource', uri: 'demo://items/{id}' } } })).toEqual({
      kind: 'completion',
      of: 'resource',
      name: 'demo://items/{id}'
    });
  });

  it('names nothing for other methods, prototype keys, or params that are missing or malformed', () => {
    for (const method of ['tools/list', 'resources/unsubscribe', 'tasks/get', '__proto__', 'constructor', 'toString']) {
      expect(memberTargetOf({ method, params: { name: 'x', uri: 'x' } })).toBeUndefined();
    }
    expect(memberTargetOf({ method: 'tools/call' })).toBeUndefined();
    expect(memberTargetOf({ method: 'tools/call', params: { name: 7 } })).toBeUndefined();
    expect(memberTargetOf({ method: 'tools/call', params: ['billing.refund'] })).toBeUndefined();
    expect(memberTargetOf({ method: 'resources/read', params: JSON.parse('{"__proto__": {"uri": "demo://readme"}}') })).toBeUndefined();
    expect(memberTargetOf({ method: 'completion/complete', params: { ref: { type: 'ref/other', name: 'x' } } })).toBeUndefined();
  });
});

describe('scopesOfRequest: what the HTTP auth gate asks', () => {
  const scopes: Record<string, readonly string[]> = { 'tool:refund': ['billing:write'], 'resource:demo://readme': ['docs:read'] };
  const scopesOf = (target: MemberTarget): readonly string[] | undefined =>
    scopes[`${target.kind}:${target.kind === 'resource' ? target.uri : target.name}`];
  const gate = scopesOfRequest(scopesOf);

  it('gives the scopes of the member the request names', () => {
    expect(gate({ method: 'tools/call', params: { name: 'refund' } })).toEqual(['billing:write']);
    expect(gate({ method: 'resources/subscribe', params: { uri: 'demo://readme' } })).toEqual(['docs:read']);
  });

  it('gives none where the request names no member (the handler answers it)', () => {
    expect(gate({ method: 'tools/list', params: {} })).toBeUndefined();
    expect(gate({ method: 'tools/call', params: {} })).toBeUndefined();
    expect(gate({ method: 'tools/call', params: { name: 'unknown' } })).toBeUndefined();
  });
});
