/**
 * The path of a web-standard request's URL, without building a `URL` (a cost on every request):
 * `Request.url` is already parsed and serialized, so for http(s) the path is what follows the
 * authority, up to the query or fragment. Any other form is left to the URL parser.
 */
export function pathOfRequestUrl(url: string): string {
  const authority = url.startsWith('http://') ? 7 : url.startsWith('https://') ? 8 : -1;
  const slash = authority === -1 ? -1 : url.indexOf('/', authority);
  if (slash === -1) return new URL(url).pathname;
  let end = url.length;
  const query = url.indexOf('?', slash);
  if (query !== -1) end = query;
  const fragment = url.indexOf('#', slash);
  if (fragment !== -1 && fragment < end) end = fragment;
  return url.slice(slash, end);
}
