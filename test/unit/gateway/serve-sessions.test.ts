import { parseServe } from '../../../packages/cli/src/serve-command';

describe("mcpfusion serve's session limits, as read from the command line", () => {
  it('reads --max-sessions, --max-sessions-per-caller and --upstream-sessions', () => {
    expect(
      parseServe(['--url', 'http://x/mcp', '--max-sessions', '50', '--max-sessions-per-caller', '1000', '--upstream-sessions', '8'])
    ).toMatchObject({ maxSessions: 50, maxSessionsPerCaller: 1000, upstreamSessions: 8 });
  });

  it('leaves them out when not given (the defaults, or the MCPFUSION_* variables, apply)', () => {
    const command = parseServe(['--url', 'http://x/mcp']);
    expect(command).not.toHaveProperty('maxSessions');
    expect(command).not.toHaveProperty('maxSessionsPerCaller');
    expect(command).not.toHaveProperty('upstreamSessions');
  });

  it.each([
    [['--url', 'http://x/mcp', '--max-sessions', '0'], '--max-sessions: "0" is not a positive integer'],
    [['--url', 'http://x/mcp', '--max-sessions-per-caller', 'many'], '--max-sessions-per-caller: "many" is not a positive integer'],
    [['--url', 'http://x/mcp', '--upstream-sessions', '2.5'], '--upstream-sessions: "2.5" is not a positive integer'],
    [['--url', 'http://x/mcp', '--upstream-sessions'], '--upstream-sessions needs a value']
  ])('%j is a usage error: %s', (argv, message) => {
    expect(() => parseServe(argv)).toThrow(message);
  });
});

describe('serve --tool-search', () => {
  test('is read as a switch, with --url and with --config', () => {
    expect(parseServe(['--url', 'http://x/mcp', '--tool-search'])).toMatchObject({ toolSearch: true });
    expect(parseServe(['--config', 'mcp.json', '--tool-search'])).toMatchObject({ config: 'mcp.json', toolSearch: true });
    expect(parseServe(['--url', 'http://x/mcp'])).not.toHaveProperty('toolSearch');
  });
});

describe('serve --no-front-lane', () => {
  test('turns the lane off; --front-lane (the default) and nothing leave it to serveGateway', () => {
    expect(parseServe(['--url', 'http://x/mcp', '--no-front-lane'])).toMatchObject({ frontLane: false });
    expect(parseServe(['--url', 'http://x/mcp', '--front-lane'])).toMatchObject({ frontLane: true });
    expect(parseServe(['--url', 'http://x/mcp'])).not.toHaveProperty('frontLane');
  });
});

describe('serve --sse', () => {
  test('goes with --url, not with --stdio or --config', () => {
    expect(parseServe(['--url', 'http://127.0.0.1:8000/sse', '--sse', '--header', 'A: b'])).toMatchObject({
      target: { url: new URL('http://127.0.0.1:8000/sse'), transport: 'sse', headers: { A: 'b' } }
    });
    expect(() => parseServe(['--stdio', 'node x.js', '--sse'])).toThrow('--sse goes with --url');
    expect(() => parseServe(['--config', 'mcp.json', '--sse'])).toThrow('"type": "sse" in the file');
  });
});
