import { FORWARDED_RESULT } from '../../../src/gateway/upstream-result';

/** The gateway's one check of a forwarded `tools/call` result (in place of the SDK client's full parse). */
describe('FORWARDED_RESULT', () => {
  const check = (value: unknown) =>
    FORWARDED_RESULT['~standard'].validate(value) as { value?: unknown; issues?: Array<{ message: string }> };

  it('passes a well-formed result through as it came (the same object)', () => {
    const result = {
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', data: 'AA==', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'demo://a', name: 'a' },
        { type: 'resource', resource: { uri: 'demo://b', text: 'b' } }
      ],
      structuredContent: { n: 1 },
      isError: false,
      _meta: { extra: true }
    };
    expect(check(result).value).toBe(result);
  });

  it('gives a result with no content an empty one, as the SDK schema does', () => {
    expect(check({ structuredContent: { n: 1 } }).value).toEqual({ structuredContent: { n: 1 }, content: [] });
  });

  it.each([
    [null, 'it is not an object'],
    [{ content: 'text' }, '`content` is not an array'],
    [{ content: [{ text: 'no type' }] }, 'content[0] has no type'],
    [{ content: [{ type: 'text' }] }, 'content[0] (text) has no text'],
    [{ content: [{ type: 'image', data: 'AA==' }] }, 'content[0] (image) has no mimeType'],
    [{ content: [{ type: 'video', url: 'x' }] }, 'content[0] has an unknown type "video"'],
    [{ content: [{ type: 'resource' }] }, 'content[0] (resource) has no resource'],
    [{ content: [], isError: 'yes' }, '`isError` is not a boolean'],
    [{ content: [], structuredContent: [1] }, '`structuredContent` is not an object']
  ])('refuses %j: %s', (value, problem) => {
    expect(check(value).issues).toEqual([{ message: `The upstream's tools/call result is malformed: ${problem}` }]);
  });
});
