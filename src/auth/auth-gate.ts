import type * as HttpAuthModule from './http-auth';

export type { HttpAuthGate } from './http-auth';

/**
 * `createHttpAuthGate` (http-auth.ts), its module loaded only by an app made with `auth`: it uses
 * the SDK server's OAuth helpers, which an app without auth does not load when it is made.
 */
export function createHttpAuthGate(...args: Parameters<typeof HttpAuthModule.createHttpAuthGate>): HttpAuthModule.HttpAuthGate {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on need (above)
  return (require('./http-auth') as typeof HttpAuthModule).createHttpAuthGate(...args);
}
