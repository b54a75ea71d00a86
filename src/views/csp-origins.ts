/**
 * Why a CSP entry of a view is not an origin, or undefined. A host copies these entries into
 * its Content Security Policy, where a bare `*`, a path or a plain-http origin would open the
 * view to far more than its author meant; so each entry must be `scheme://host[:port]` with a
 * secure scheme (https:, wss:), a `*.` wildcard only as the leftmost label, and plain http:/ws:
 * only on loopback (a dev server).
 */
export function cspEntryProblem(entry: unknown): string | undefined {
  const fix = 'write an origin, scheme://host[:port], like https://api.example.com or https://*.example.com';
  if (typeof entry !== 'string' || entry.trim() === '') return `${JSON.stringify(entry)} is not an origin: ${fix}.`;
  if (entry.includes('*') && !/^[a-z]+:\/\/\*\.[^*]+$/i.test(entry)) {
    return `${JSON.stringify(entry)} is a wildcard the host cannot narrow: ${fix} (a wildcard only as *. before a domain).`;
  }
  let url: URL;
  try {
    // A wildcard label is not a host name to the URL parser: check the rest of the origin with a stand-in.
    url = new URL(entry.replace('://*.', '://wildcard.'));
  } catch {
    return `${JSON.stringify(entry)} is not an origin: ${fix}.`;
  }
  if (!['https:', 'wss:', 'http:', 'ws:'].includes(url.protocol)) return `${JSON.stringify(entry)} uses ${url.protocol}: ${fix}.`;
  const canonical = `${url.protocol}//${url.host}`;
  if (entry.replace('://*.', '://wildcard.').replace(/\/$/, '').toLowerCase() !== canonical.toLowerCase()) {
    return `${JSON.stringify(entry)} is not an origin (it has a path, query, credentials or a default port): ${fix}.`;
  }
  if ((url.protocol === 'http:' || url.protocol === 'ws:') && !isLoopback(url.hostname)) {
    return `${JSON.stringify(entry)} is plain ${url.protocol.slice(0, -1)} outside loopback: use ${url.protocol === 'http:' ? 'https:' : 'wss:'} (plain http only for localhost, 127.0.0.1 or [::1]).`;
  }
  return undefined;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}
