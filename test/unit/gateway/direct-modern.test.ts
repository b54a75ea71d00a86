import type { Tool } from '@modelcontextprotocol/client';
import { DirectTools, decodeModernResult, rpcErrorIn } from '../../../src/gateway/direct-modern';
import { UpstreamRpcError } from '../../../src/wire/raw-exchange';

/**
 * What a direct call to a 2026-07-28 upstream decides without the SDK client: which tools' calls
 * go out directly, how a result is read (as the SDK's `decodeResult` reads it), and the JSON-RPC
 * error a refused request's body carries.
 */

const tool = (name: string, inputSchema: Record<string, unknown> = { type: 'object' }): Tool => ({ name, inputSchema }) as Tool;

describe('DirectTools: the calls that go out directly', () => {
  it('takes the listed tools whose names go into Mcp-Name as they are and that declare no x-mcp-header', () => {
    const tools = new DirectTools();
    expect(tools.has('echo')).toBe(false); // nothing listed yet: the SDK client sends it
    tools.learn([
      tool('echo'),
      tool('with-header', { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } }),
      tool('café'),
      tool(' padded'),
      tool('=?base64?abc?=')
    ]);
    expect(tools.has('echo')).toBe(true);
    for (const name of ['with-header', 'café', ' padded', '=?base64?abc?=', 'unlisted']) expect(tools.has(name)).toBe(false);
  });

  it('forgets a tool that a fresh listing no longer has, or now lists with a header declaration', () => {
    const tools = new DirectTools();
    tools.learn([tool('a'), tool('b')]);
    tools.learn([tool('a', { type: 'object', properties: { k: { type: 'string', 'x-mcp-header': 'K' } } })]);
    expect(tools.has('a')).toBe(false);
    expect(tools.has('b')).toBe(false);
  });
});

describe('decodeModernResult: a 2026-07-28 tools/call result as the SDK reads it', () => {
  it('gives a complete result without its resultType, with empty content where it had none', () => {
    expect(decodeModernResult({ resultType: 'complete', content: [{ type: 'text', text: 'hi' }], _meta: { k: 1 } })).toEqual({
      value: { content: [{ type: 'text', text: 'hi' }], _meta: { k: 1 } }
    });
    expect(decodeModernResult({ resultType: 'complete' })).toEqual({ value: { content: [] } });
  });

  it('gives an input_required round whole (inputRequests an object), for the rounds to answer', () => {
    const round = { resultType: 'input_required', inputRequests: { a: { method: 'roots/list' } }, requestState: 's' };
    expect(decodeModernResult(round)).toEqual({ value: round });
    expect(decodeModernResult({ resultType: 'input_required', inputRequests: [1], requestState: 's' })).toEqual({
      value: { resultType: 'input_required', inputRequests: {}, requestState: 's' }
    });
  });

  it.each([
    ['no object', 'nope', /not an object/],
    ['no resultType', { content: [] }, /missing required resultType/],
    ['an unknown resultType', { resultType: 'task' }, /Unsupported result type 'task'/],
    ['a round with nothing to answer', { resultType: 'input_required' }, /neither inputRequests nor requestState/],
    ['a malformed complete result', { resultType: 'complete', content: 'x' }, /`content` is not an array/]
  ])('refuses %s, saying why', (_what, result, reason) => {
    const decoded = decodeModernResult(result);
    expect(decoded).toBeInstanceOf(Error);
    expect((decoded as Error).message).toMatch(reason);
  });
});

describe('rpcErrorIn: the JSON-RPC error of a refused request', () => {
  it('reads the code, message and data', () => {
    const error = rpcErrorIn(
      JSON.stringify({ jsonrpc: '2.0', id: 'gw-call:1', error: { code: -32001, message: 'header mismatch', data: { h: 1 } } })
    );
    expect(error).toBeInstanceOf(UpstreamRpcError);
    expect(error).toMatchObject({ code: -32001, message: 'header mismatch', data: { h: 1 } });
  });

  it.each(['not json', 'null', '{"error":{"code":"x","message":"m"}}', '{"result":{}}'])('finds none in %s', (text) => {
    expect(rpcErrorIn(text)).toBeUndefined();
  });
});
