import { isIPv6 } from 'node:net';

/**
 * The authority a request is for, parsed once and strictly (RFC 9112 §3.2, RFC 3986 §3.2)
 * before anything builds a URL from it: a host name, an IPv4 address or a bracketed IPv6
 * address, and an optional port of at most five digits up to 65535. No user information, no
 * path, query, backslash, space or percent sign, nothing after the port. For an absolute-form
 * request target the target's authority is the one (§3.2.2: the Host header is ignored then);
 * a request-target of `*`, two Host lines, or no Host at all is refused.
 */
export type Authority = { readonly authority: string } | { readonly problem: string };

const HOST_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)*\.?$/;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Whether `value` is a valid authority (`host`, `host:port`, `[v6]`, `[v6]:port`). */
export function isAuthority(value: string): boolean {
  let host = value;
  const bracket = value.startsWith('[') ? value.indexOf(']') : -1;
  if (value.startsWith('[')) {
    if (bracket === -1 || !isIPv6(value.slice(1, bracket))) return false;
    host = value.slice(0, bracket + 1);
  }
  const rest = value.slice(host === value ? value.length : host.length);
  let port: string | undefined;
  if (host === value) {
    const colon = value.lastIndexOf(':');
    if (colon !== -1) {
      port = value.slice(colon + 1);
      host = value.slice(0, colon);
    }
  } else if (rest !== '') {
    if (!rest.startsWith(':')) return false;
    port = rest.slice(1);
  }
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) > 65_535)) return false;
  if (host.startsWith('[')) return true;
  return host.length > 0 && host.length <= 253 && (IPV4.test(host) || HOST_NAME.test(host));
}

/** The authority of a Node request from its raw header lines and its request target. */
export function authorityOf(rawHeaders: readonly string[], target: string): Authority {
  const hosts: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === 'host') hosts.push(rawHeaders[i + 1]);
  if (hosts.length > 1) return { problem: 'more than one Host header' };
  if (target === '*') return { problem: 'the request target * is not served here' };
  if (!target.startsWith('/')) {
    // Absolute form: scheme://authority[path]; its authority wins over the Host header.
    const match = /^https?:\/\/([^/?#]*)/i.exec(target);
    if (!match) return { problem: 'the request target is neither a path nor an http(s) URL' };
    if (match[1].includes('@')) return { problem: 'the request target carries credentials' };
    return isAuthority(match[1]) ? { authority: match[1] } : { problem: 'the request target has an invalid authority' };
  }
  if (hosts.length === 0) return { problem: 'the Host header is missing' };
  return isAuthority(hosts[0]) ? { authority: hosts[0] } : { problem: 'the Host header is not a valid host[:port]' };
}
