import type * as ServerSdk from '@modelcontextprotocol/server';
import { serverSdk } from '../wire/server-sdk';

/**
 * The error a token verifier throws to refuse a token: the MCP SDK's `OAuthError` itself (the same
 * class, for `instanceof` and `extends`), read from the SDK on first use so that importing the
 * package does not load the SDK server (src/wire/server-sdk.ts). With `OAuthErrorCode.InvalidToken`
 * the endpoint answers 401 with a `WWW-Authenticate` challenge.
 */
export declare const OAuthError: typeof ServerSdk.OAuthError;
/** An `OAuthError` (the MCP SDK's class). */
export type OAuthError = ServerSdk.OAuthError;
/** The OAuth error codes an `OAuthError` carries (the MCP SDK's enum, read on first use); a verifier refuses with `InvalidToken`. */
export declare const OAuthErrorCode: typeof ServerSdk.OAuthErrorCode;
/** One of the codes of {@link OAuthErrorCode}. */
export type OAuthErrorCode = ServerSdk.OAuthErrorCode;

// Getters on this module's exports (what `export … from` compiles to, but reading the SDK when first read).
Object.defineProperties(exports, {
  OAuthError: { enumerable: true, get: () => serverSdk().OAuthError },
  OAuthErrorCode: { enumerable: true, get: () => serverSdk().OAuthErrorCode }
});
