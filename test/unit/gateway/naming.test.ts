import { NAMESPACE_PATTERN, namespacedName, namespacedUri, upstreamName, upstreamUri } from '../../../src/gateway/namespace';
import {
  NAMESPACE_PATTERN as COMPOSE_PATTERN,
  namespacedName as composeName,
  namespacedUri as composeUri,
  unnamespacedUri
} from '../../../src/compose/namespace';
import { describeTarget, resolveTarget } from '../../../src/gateway/upstream-target';
import { parseServe } from '../../../packages/cli/src/serve-command';
import { ConfigurationError, proxy } from '../../../src';

describe('the gateway names what it serves under a namespace', () => {
  it('tools and prompts: <namespace>.<name>, and back', () => {
    expect(namespacedName('desk', 'billing.refund')).toBe('desk.billing.refund');
    expect(upstreamName('desk', 'desk.billing.refund')).toBe('billing.refund');
    expect(upstreamName('desk', 'other.billing.refund')).toBeUndefined();
    expect(namespacedName(undefined, 'billing.refund')).toBe('billing.refund');
  });

  it.each(['billing://invoices/3', 'billing://invoices/{id}', 'file:///a/b.txt?x=1#y', 'ui://desk/view.html'])(
    'resources: %s round-trips under desk+',
    (uri) => {
      const front = namespacedUri('desk', uri);
      expect(front).toBe(`desk+${uri}`);
      expect(upstreamUri('desk', front)).toBe(uri);
      // Still a URI whose scheme carries the namespace.
      if (!uri.includes('{')) expect(new URL(front).protocol).toBe(`desk+${new URL(uri).protocol}`);
    }
  );

  it('a URI outside the namespace is not the upstream’s', () => {
    expect(upstreamUri('desk', 'billing://invoices/3')).toBeUndefined();
    expect(upstreamUri('desk', 'other+billing://invoices/3')).toBeUndefined();
  });

  it('is the composition rule (one module for mount and gateway)', () => {
    expect(namespacedUri('desk', 'billing://invoices/3')).toBe(composeUri('desk', 'billing://invoices/3'));
    expect(upstreamUri('desk', 'desk+billing://invoices/3')).toBe(unnamespacedUri('desk', 'desk+billing://invoices/3'));
    expect(namespacedName('desk', 'billing.refund')).toBe(composeName('desk', 'billing.refund'));
    expect(NAMESPACE_PATTERN).toBe(COMPOSE_PATTERN);
  });

  it('refuses a namespace that cannot head a URI scheme, at startup', async () => {
    for (const namespace of ['Desk', 'my_desk', 'a.b']) {
      await expect(proxy('http://127.0.0.1:1/mcp', { namespace })).rejects.toThrow(ConfigurationError);
    }
  });
});

describe('gateway targets', () => {
  it('an http(s) URL, a URL object, { url, headers }, or { command, args }', () => {
    expect(resolveTarget('http://127.0.0.1:3000/mcp')).toEqual({ kind: 'http', url: new URL('http://127.0.0.1:3000/mcp'), headers: {} });
    expect(resolveTarget({ url: 'https://x.example/mcp', headers: { authorization: 'Bearer t' } })).toMatchObject({
      kind: 'http',
      headers: { authorization: 'Bearer t' }
    });
    const stdio = resolveTarget({ command: 'node', args: ['main.js', '--stdio'] });
    expect(stdio).toEqual({ kind: 'stdio', command: 'node', args: ['main.js', '--stdio'] });
    expect(describeTarget(stdio)).toBe('node main.js --stdio');
  });

  it('refuses what is neither, saying what to give', () => {
    expect(() => resolveTarget('ftp://x/mcp')).toThrow(ConfigurationError);
    expect(() => resolveTarget('not a url')).toThrow(/is not a URL: give the upstream's endpoint/);
    expect(() => resolveTarget({ command: '' } as never)).toThrow(/proxy\(\) needs a target/);
  });
});

describe('mcpfusion serve, as read from the command line', () => {
  it('reads --stdio, --port, --namespace and --upstream-era', () => {
    expect(parseServe(['--stdio', "node 'build/sample app/main.js' --stdio", '--namespace', 'desk', '--port', '0'])).toEqual({
      command: 'serve',
      target: { command: 'node', args: ['build/sample app/main.js', '--stdio'] },
      port: 0,
      namespace: 'desk'
    });
    expect(parseServe(['--url', 'http://127.0.0.1:3000/mcp', '--upstream-era', '2026'])).toMatchObject({
      target: { url: new URL('http://127.0.0.1:3000/mcp') },
      port: 3000,
      era: '2026'
    });
  });

  it('reads --config: every server of an mcpServers file', () => {
    expect(parseServe(['--config', '~/.cursor/mcp.json', '--port', '0', '--upstream-era', 'auto'])).toEqual({
      command: 'serve',
      config: '~/.cursor/mcp.json',
      port: 0,
      era: 'auto'
    });
  });

  it('passes --header to an HTTP upstream', () => {
    expect(parseServe(['--url', 'http://x/mcp', '--header', 'Authorization: Bearer t'])).toMatchObject({
      target: { url: new URL('http://x/mcp'), headers: { Authorization: 'Bearer t' } }
    });
  });

  it.each([
    [['--stdio', 'node a.js', '--header', 'A: b'], '--header goes with --url (a stdio upstream has no HTTP headers)'],
    [['--url', 'http://x/mcp', '--header', 'nocolon'], `--header must be 'Name: value' (got "nocolon")`],
    [[], "serve needs an upstream: --stdio '<command line>', --url <url> or --config <mcp.json>"],
    [['--config', 'mcp.json', '--url', 'http://x/mcp'], 'serve: --config names the upstreams; leave out --stdio and --url'],
    [['--config', 'mcp.json', '--namespace', 'x'], 'serve: with --config each server is served under its own name; leave out --namespace'],
    [['--config'], '--config needs a value'],
    [['--url', 'nope'], '--url: "nope" is not a URL (http://127.0.0.1:3000/mcp)'],
    [['--url', 'http://x/mcp', '--port', '70000'], '--port: "70000" is not a port number (0–65535)'],
    [['--url', 'http://x/mcp', '--upstream-era', '2027'], '--upstream-era must be 2025, 2026 or auto (got "2027")'],
    [['--url', 'http://x/mcp', '--verbose'], 'serve: unknown option "--verbose" (mcpfusion --help)']
  ])('%j is a usage error: %s', (argv, message) => {
    expect(() => parseServe(argv)).toThrow(message);
  });
});
