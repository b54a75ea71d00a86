/**
 * `@mcpfusion/core`: what an application writes or annotates. The decorators and `FusionApp`,
 * the call context and middleware and presenter types, the input API, `progress`, the errors an
 * application throws or catches, the stores it passes in, authorization, and the option types of
 * most of these. The building blocks for writing your own queue, lock or task store, the
 * introspection types, the specific error classes and the types apps write inline or let
 * TypeScript infer (`ListenOptions`, `Gateway`, `Mount`, …) are in `@mcpfusion/core/advanced`; the test
 * client is in `@mcpfusion/core/testing`; Redis coordination in `@mcpfusion/core/redis`.
 * docs/api.md says what each entry point holds and why; etc/*.api.md is the reviewed surface.
 *
 * @packageDocumentation
 */
import 'reflect-metadata';
import { assertLegacyDecorators } from './decorators/decorator-mode';
import { progress as progressUpdate, type ProgressUpdate } from './pipeline/progress';

// A program compiled without experimentalDecorators is stopped here, naming the fix, before its
// input classes' class-validator decorators crash (they run before any decorator of ours).
assertLegacyDecorators(module);

// The app: composition root, its options, `listen`, and the test entry point `app.callTool`.
export { FusionApp } from './app/fusion-app';
export type { DirectCallOptions } from './types/harness';
export type { FusionAppOptions } from './app/app-options';
export type { FusionHttpHandler, HttpHandlerOptions } from './transports/http/fusion-http-handler';

// Another MCP server behind the app: its tools served through the app's chain, across both eras.
export { proxy } from './gateway';
export type { ProxyOptions } from './gateway';

// Declaring tools, resources and prompts.
export { Action, Ctx, Input, Interactive, Mutation, Prompt, Resource, ResourceTemplate, Signal, ToolProvider } from './decorators';
/**
 * Adds to or overrides the JSON Schema generated for a property of an input class (re-exported from
 * `class-validator-jsonschema`), for what its validators cannot say: `@JSONSchema({ type: ['string', 'null'] })`.
 */
export { JSONSchema } from 'class-validator-jsonschema';
export type {
  Completer,
  InteractiveOptions,
  MutationOptions,
  PromptOptions,
  ResourceOptions,
  ResourceTemplateOptions,
  ToolOptions,
  ToolProviderOptions
} from './metadata/types';
export type { Constructor } from './types/core';

// Views (MCP Apps): HTML documents a host renders beside the tools that name them.
export { view } from './views/view';
// Composition: the Skills extension (writing one of your own: `FusionExtension` in `/advanced`), and mounting tool
// classes or apps under a namespace.
export { skills } from './skills/skills-extension';
export { mount } from './compose/mount';
export type { ViewOptions } from './types/view-options';
export { rendersViews } from './views/renders-views';

// The call: its context, dependency injection, middleware, presenters, progress.
export { CALL_AUTH, CALL_CONTEXT, CALL_SIGNAL, FUSION_APP } from './di/tokens';
export type { CallContext, RequestExtra } from './types/context';
export type { FusionMiddleware, Middleware, MiddlewareFn, Next } from './types/middleware';
export { cappedList } from './presenters';
export type { PresentationContext, Presenter } from './presenters';
/**
 * Makes a progress event for `yield` in a generator handler: `yield progress(40, 'rows loaded')`.
 * `percent` is 0–100 and must increase (see `progress` in `pipeline/progress.ts`). Exported as a
 * plain value, not a re-export, so a call from a handler's loop reads a property rather than
 * running a getter.
 */
export const progress: (percent: number, message?: string) => ProgressUpdate = progressUpdate;
export type { ProgressUpdate } from './pipeline/progress';

// Asking the user mid-call.
export { ask } from './interactive/ask';
export type { AnswersOf, Fields } from './interactive/ask';
export { requireInput } from './interactive/require-input';
export type { InputRound, RequireInputOptions } from './interactive/require-input';
export { readInput, inputStatus, readRequestState } from './interactive/input-scope';
export type { InputStatus } from './interactive/input-scope';

// Errors: the base class and its codes, the one a tool throws, the one startup throws. The other
// classes are in `@mcpfusion/core/advanced`; `error.code` (an `ErrorCode`) tells them apart.
export { ConfigurationError, ErrorCode, FusionError, ToolError } from './errors';
export type { ErrorCodeValue } from './errors';

// Stores and coordination an app passes in (`tasks.store`, `continuationStore`, `concurrency`, `mutationLock`).
export { InMemoryTaskStore } from './tasks/task-store';
export type { TaskStore } from './tasks/task-store';
export { SqliteTaskStore } from './tasks/sqlite-task-store';
export type { TaskSettings } from './tasks/app-tasks';
export { SignedContinuationStore } from './interactive/continuation-store';
export type { ContinuationStore } from './interactive/continuation-store';
export type { CallQueue, MutationLock } from './concurrency';

// Authorization (the HTTP endpoint as an OAuth 2.1 resource server).
export type { AuthOptions } from './auth/http-auth';
export type { CallerAuth } from './types/context';
export { jwtVerifier } from './auth/jwt-verifier';
export type { JwtVerifierOptions } from './auth/jwt-verifier';
/**
 * The error a token verifier throws to refuse a token (re-exported from the MCP SDK): with
 * `OAuthErrorCode.InvalidToken` the endpoint answers 401 with a `WWW-Authenticate` challenge.
 */
export { OAuthError } from '@modelcontextprotocol/server';
/** The OAuth error codes an `OAuthError` carries (re-exported from the MCP SDK); a verifier refuses with `InvalidToken`. */
export { OAuthErrorCode } from '@modelcontextprotocol/server';
/**
 * What `AuthOptions.verifier` is (re-exported from the MCP SDK): `verifyAccessToken(token)` resolves
 * to the token's `AuthInfo` or throws an `OAuthError`. `jwtVerifier` makes one; write your own for
 * introspection or an identity provider's SDK.
 */
export type { OAuthTokenVerifier } from '@modelcontextprotocol/server';
/**
 * A verified token as a verifier returns it (re-exported from the MCP SDK): client id, scopes,
 * expiry, resource, `extra`. Tools see the caller as `CallerAuth` (`ctx.auth`), not as this.
 */
export type { AuthInfo } from '@modelcontextprotocol/server';
