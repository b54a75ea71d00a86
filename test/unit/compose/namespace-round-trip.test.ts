import { namespacedUri, unnamespacedUri } from '../../../src/compose/namespace';
import { mountedUriRewrite, namespacedBlock, namespacedResultUris } from '../../../src/compose/namespaced-content';
import { namespacedUri as gatewayUri, upstreamUri } from '../../../src/gateway/namespace';

/**
 * The one naming rule of resource URIs, `<namespace>+<scheme>:<rest>`, which mount and gateway
 * share: every URI shape maps there and back exactly, stays a URI with the namespace in its
 * scheme, and the URIs inside results (links, embedded resources) follow it.
 */

const SHAPES = [
  'demo://items/7',
  'demo://items/{id}',
  'demo://items/{id}{?q,page}',
  'billing://invoices/42?x=1&y=%20#frag',
  'file:///home/ada/notes.txt',
  'file:///C:/Users/ada/notes%20one.txt',
  'urn:isbn:0451450523',
  'mailto:ada@example.com',
  'https://example.com/a/b?c=d',
  'http://[::1]:8080/x',
  'git+ssh://host/repo.git',
  'data:text/plain;base64,SGVsbG8=',
  'demo://ünïcode/ß',
  'demo://items/',
  'demo:',
  'x-custom.scheme-1://a/b/c',
  'ui://desk/main'
];

const NAMESPACES = ['ev', 'desk', 'a', 'a-1', 'z9-long-namespace'];

describe('resource URIs under a namespace: <namespace>+<scheme>:<rest>', () => {
  it.each(NAMESPACES.flatMap((ns) => SHAPES.map((uri) => [ns, uri] as const)))('%s + %s round-trips', (ns, uri) => {
    const front = namespacedUri(ns, uri);
    expect(front).toBe(`${ns}+${uri}`);
    expect(unnamespacedUri(ns, front)).toBe(uri);
    // The gateway's rule is this one (with no namespace: the URI as is).
    expect(gatewayUri(ns, uri)).toBe(front);
    expect(upstreamUri(ns, front)).toBe(uri);
    expect(gatewayUri(undefined, uri)).toBe(uri);
    // Still a URI, its scheme headed by the namespace (templates are not URIs until expanded).
    if (!uri.includes('{')) expect(new URL(front).protocol).toBe(`${ns}+${new URL(uri).protocol}`);
  });

  it('a URI under another namespace, or none, is not this one’s', () => {
    expect(unnamespacedUri('desk', 'demo://items/7')).toBeUndefined();
    expect(unnamespacedUri('desk', 'ev+demo://items/7')).toBeUndefined();
    expect(unnamespacedUri('desk', 'desk+')).toBeUndefined();
    expect(unnamespacedUri('de', 'desk+demo://x')).toBeUndefined();
  });

  it('a mount keeps the ui:// scheme of views (ui://<namespace>/<rest>), every other URI takes the rule', () => {
    const rewrite = mountedUriRewrite('ledger');
    expect(rewrite('ui://desk/main')).toBe('ui://ledger/desk/main');
    expect(rewrite('demo://items/7')).toBe('ledger+demo://items/7');
  });
});

describe('the URIs inside results follow the rule', () => {
  const rewrite = (uri: string) => namespacedUri('ev', uri);

  it('resource links and embedded resources of a tool result; other blocks and structuredContent as they are', () => {
    const text = { type: 'text', text: 'demo://not-a-link' };
    const result = {
      content: [
        text,
        { type: 'resource_link', uri: 'demo://items/7', name: 'Item 7' },
        { type: 'resource', resource: { uri: 'demo://readme', text: 'hi', mimeType: 'text/plain' } }
      ],
      structuredContent: { uri: 'demo://items/7' }
    };
    const out = namespacedResultUris(result, rewrite);
    expect(out).toEqual({
      content: [
        text,
        { type: 'resource_link', uri: 'ev+demo://items/7', name: 'Item 7' },
        { type: 'resource', resource: { uri: 'ev+demo://readme', text: 'hi', mimeType: 'text/plain' } }
      ],
      structuredContent: { uri: 'demo://items/7' }
    });
    expect(out.content[0]).toBe(text);
    // The input is not changed.
    expect(result.content[1]).toEqual({ type: 'resource_link', uri: 'demo://items/7', name: 'Item 7' });
  });

  it('a result that names no resource is the same object', () => {
    const result = { content: [{ type: 'text', text: 'x' }] };
    expect(namespacedResultUris(result, rewrite)).toBe(result);
  });

  it('prompt messages, one block or a list each', () => {
    const out = namespacedResultUris(
      {
        messages: [
          { role: 'user', content: { type: 'resource', resource: { uri: 'demo://readme', text: 'hi' } } },
          { role: 'user', content: [{ type: 'resource_link', uri: 'demo://items/1', name: 'one' }] },
          { role: 'assistant', content: { type: 'text', text: 'ok' } }
        ]
      },
      rewrite
    );
    expect(out.messages.map((m) => m.content)).toEqual([
      { type: 'resource', resource: { uri: 'ev+demo://readme', text: 'hi' } },
      [{ type: 'resource_link', uri: 'ev+demo://items/1', name: 'one' }],
      { type: 'text', text: 'ok' }
    ]);
  });

  it('what is malformed (untrusted upstream) passes as it is', () => {
    for (const block of [
      null,
      'text',
      42,
      { type: 'resource_link' },
      { type: 'resource_link', uri: 7 },
      { type: 'resource', resource: null }
    ])
      expect(namespacedBlock(block, rewrite)).toBe(block);
    expect(namespacedResultUris(undefined, rewrite)).toBeUndefined();
    expect(namespacedResultUris({ resultType: 'input_required' }, rewrite)).toEqual({ resultType: 'input_required' });
    expect(namespacedResultUris({ messages: [null, { role: 'user' }] }, rewrite)).toEqual({ messages: [null, { role: 'user' }] });
  });
});
