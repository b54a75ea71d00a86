import {
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  validateHostHeader
} from '@modelcontextprotocol/server';
import { isAuthority } from '../authority';
import type { EntryRequest } from '../entry-request';
import { badAuthority, hostNotAllowed } from '../protocol-refusals';

/**
 * The host/origin guard: the first check of a request to the endpoint, against DNS rebinding.
 * A `Host` outside the allowed hostnames is refused (403, -32000); so is a browser's `Origin`
 * outside the allowed origins (the SDK's own 403). A request without `Origin` (not from a
 * browser) passes that half. Both lists default to the localhost names.
 */
export type HostOriginGuard = (request: EntryRequest) => Response | undefined;

export function hostOriginGuard(options: { allowedHosts?: string[]; allowedOrigins?: string[] } = {}): HostOriginGuard {
  const allowedHosts = options.allowedHosts ?? localhostAllowedHostnames();
  const allowedOrigins = options.allowedOrigins ?? localhostAllowedOrigins();
  return (request) => {
    // A web Request built in-process carries no Host header; its URL is where Node takes the host from.
    const host = request.headers.get('host') ?? new URL(request.url).host;
    if (!isAuthority(host)) return badAuthority('the Host header is not a valid host[:port]');
    if (!validateHostHeader(host, allowedHosts).ok) return hostNotAllowed(host);
    // No Origin (or an empty one) passes the SDK's check: only a browser's is handed to it.
    return request.headers.get('origin') ? originValidationResponse(request.web(), allowedOrigins) : undefined;
  };
}
