import { extensionIdProblem, extensionMethodProblem, OFFICIAL_EXTENSION_IDS } from '../../../src/extensions/extension-rules';

describe('the extension id rule (2026-07-28 _meta key rule, prefix mandatory)', () => {
  it.each(['com.example/clock', 'com.example.mcp/x', 'io.github.acme/a.b_c-d', 'a/b', 'com.example/x1', ...OFFICIAL_EXTENSION_IDS])(
    'accepts %s',
    (id) => expect(extensionIdProblem(id)).toBeUndefined()
  );

  it.each([
    ['clock', /one slash/],
    ['com.example/a/b', /one slash/],
    ['/clock', /each label/],
    ['com..example/x', /each label/],
    ['com.-x/y', /each label/],
    ['com.x-/y', /each label/],
    ['1com.example/x', /each label/],
    ['com.example/', /the name/],
    ['com.example/-x', /the name/],
    ['com.example/x_', /the name/],
    ['io.modelcontextprotocol/mine', /reserved for MCP/],
    ['dev.mcp/x', /reserved for MCP/],
    ['org.modelcontextprotocol.api/x', /reserved for MCP/],
    ['com.MCP/x', /reserved for MCP/]
  ])('refuses %s', (id, problem) => expect(extensionIdProblem(id)).toMatch(problem));

  it('refuses what is not a string', () => {
    expect(extensionIdProblem(undefined)).toMatch(/must be a string/);
    expect(extensionIdProblem(42)).toMatch(/must be a string/);
  });
});

describe('the methods an extension may serve', () => {
  it.each(['tools/call', 'resources/read', 'server/discover', 'subscriptions/listen', 'initialize', 'ping', 'completion/complete'])(
    'refuses the core method %s',
    (method) => expect(extensionMethodProblem('com.example/x', method)).toMatch(/core method/)
  );

  it('refuses notifications and empty or padded names; accepts its own', () => {
    expect(extensionMethodProblem('com.example/x', 'notifications/x')).toMatch(/notifications are not requests/);
    expect(extensionMethodProblem('com.example/x', '')).toMatch(/empty or padded/);
    expect(extensionMethodProblem('com.example/x', ' x/y')).toMatch(/empty or padded/);
    expect(extensionMethodProblem('com.example/x', 'skills/list')).toBeUndefined();
    expect(extensionMethodProblem('com.example/x', 'tasks/get')).toBeUndefined();
  });
});
