import { pathOfRequestUrl } from '../../../../src/transports/http/request-path';

describe('pathOfRequestUrl', () => {
  // Every form a Request's URL can take after the URL parser serialized it: the result is always what `new URL(url).pathname` says.
  const urls = [
    'http://127.0.0.1:3000/mcp',
    'http://localhost/mcp?x=1#y',
    'http://a/mcp#y?z',
    'https://h:1/a/b/',
    'http://[::1]:8080/mcp/../mcp',
    'http://a/%6Dcp',
    'http://a?q',
    'http://a/m%3Fcp?x',
    'HTTP://A/mcp',
    'http://a',
    'http://a#f',
    'https://example.com/mcp/'
  ];

  it.each(urls)('reads the path of %s as the URL parser does', (raw) => {
    const url = new Request(raw).url;
    expect(pathOfRequestUrl(url)).toBe(new URL(url).pathname);
  });

  it('leaves a URL of another scheme to the URL parser', () => {
    expect(pathOfRequestUrl('file:///tmp/mcp')).toBe('/tmp/mcp');
    expect(pathOfRequestUrl('urn:isbn:123')).toBe('isbn:123');
  });
});
