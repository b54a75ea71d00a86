/**
 * `@mcpfusion/core`: what an application writes or annotates. The decorators and `FusionApp`,
 * the call context and middleware and presenter types, the input API, `progress`, the errors an
 * application throws or catches, the stores it passes in, authorization.
 *
 * Its values are few: what a service author calls, decorates with, passes in, throws or catches. Its
 * types are every type its own signatures use (`ListenOptions` beside `app.listen`, `Gateway` beside
 * `proxy`, `FusionExtension` beside the `extensions` option, `TaskRecord` beside `TaskStore`), exported
 * type-only, so a reader never needs a second entry point to name an argument or a result, and they cost
 * nothing at run time. `npm run api:check` fails if a root signature uses a type the root does not export.
 *
 * `@mcpfusion/core/advanced` holds the run-time pieces for replacing or inspecting a part of the
 * framework (the in-process queue and lock, `raceAbort`, the default session event store), the specific
 * error classes, the guards of the handler protocol, `authFromEnv` and the naming rule of composition;
 * the test client is in `@mcpfusion/core/testing`; Redis coordination in `@mcpfusion/core/redis`.
 * docs/api.md says what each entry point holds and why; etc/*.api.md is the reviewed surface.
 *
 * @packageDocumentation
 */
import 'reflect-metadata';
import { assertLegacyDecorators } from './decorators/decorator-mode';
import { progress as progressUpdate, type ProgressFunction } from './pipeline/progress';

// A program compiled without experimentalDecorators is stopped here, naming the fix, before its
// input classes' class-validator decorators crash (they run before any decorator of ours). Bundled as an ES
// module (a Worker built from these sources) there is no `module`, and no importer file to read.
assertLegacyDecorators(typeof module === 'undefined' ? undefined : module);

// The app: composition root, its options, `listen`, and the test entry point `app.callTool` (with what its
// `onInput` is handed and answers).
export { FusionApp } from './app/fusion-app';
export type { DirectCallOptions, HarnessInputAnswer, HarnessInputRequest } from './types/harness';
export type { FusionAppOptions, ListenOptions, ProviderSpec, WithoutFrameworkFields } from './app/app-options';
// The `toolSearch` option: a search tool and a call tool in place of a large catalog.
export type { ToolSearchOptions, ToolSearchSetting } from './tool-search/tool-search-options';
export type { Listening } from './app/listen';
export type { ListChanges } from './app/tool-class-set';
export type { FusionHttpHandler, HttpHandlerOptions } from './transports/http/fusion-http-handler';
export type { LaneCounts } from './transports/http/front-lane/session-lane';
// Inside the app's options: the 2025-era HTTP sessions, telemetry with providers of your own.
export type { SessionOptions, SessionResumption } from './transports/http/session-registry';
export type { TelemetryOptions } from './telemetry/telemetry-options';
// What the app says of its members (`app.tools`, `app.describeChain`) and what a call is told of its tool (`ctx.tool`).
export type { ToolDescriptor } from './metadata/tool-descriptor';
// What an app serves of a gateway (`Gateway.memberSource`): members that are not methods of its classes.
export type { MemberSource, MemberSourceListener } from './metadata/member-source';
// What a member source is handed of the app in front (its sessions), and what it offers of its upstream's tasks.
export type { FrontSessions } from './types/front-sessions';
export type { ForwardedTaskMethod, TaskForwarding } from './types/forwarded-tasks';
export type { PromptDescriptor, ResourceTemplateDescriptor, SurfaceMember } from './metadata/surface-descriptors';
export type { MemberMeta } from './types/display';
export type { CallKind, Era, JsonSchema, MemberKind, OutputSpec, ParamKind, RequestFacts, ToolInfo, ToolKind } from './types/core';
export type { ToolTaskSupport } from './types/tasks';

// Another MCP server behind the app: its tools served through the app's chain, across both eras.
export { proxy, proxyServers } from './gateway';
export type {
  Gateway,
  ProxyOptions,
  ProxyServersOptions,
  ServerEntry,
  ServersConfig,
  UpstreamEra,
  UpstreamHealth,
  UpstreamSet,
  UpstreamState,
  UpstreamTarget
} from './gateway';

// Declaring tools, resources and prompts.
export { Action, Ctx, Input, Interactive, Mutation, Prompt, Resource, ResourceTemplate, Signal, ToolProvider } from './decorators';
/**
 * Adds to or overrides the JSON Schema generated for a property of an input class (re-exported from
 * `class-validator-jsonschema`), for what its validators cannot say: `@JSONSchema({ type: ['string', 'null'] })`.
 */
// From its decorators module, the same function as its index's, which would load class-validator at import.
export { JSONSchema } from 'class-validator-jsonschema/build/decorators';
export type {
  Completer,
  CompleterRef,
  InteractiveOptions,
  LockKeysFunction,
  MutationOptions,
  PromptOptions,
  ResourceOptions,
  ResourceTemplateOptions,
  SerializeOn,
  ToolOptions,
  ToolProviderOptions
} from './metadata/types';
export type { Constructor } from './types/core';
export type { Icon } from './types/display';
// The compile-time check of a tool's return type against its `output` (what `@Action` / `@Mutation` return).
export type { CheckedReturn, HandlerReturn, OutputCheckedDecorator, OutputValue } from './decorators/handler-return';

// Views (MCP Apps): HTML documents a host renders beside the tools that name them.
export { view } from './views/view';
export type { ViewCsp, ViewOptions } from './types/view-options';
export { rendersViews } from './views/renders-views';

// Composition: the Skills extension, and mounting tool classes or apps under a namespace.
export { skills } from './skills/skills-extension';
export type { SkillsOptions } from './skills/skills-extension';
export { mount } from './compose/mount';
export type { Mount, MountableApp } from './compose/mount';

// Writing an extension (the `extensions` option): what it is, what its methods, resources, listens, steps,
// call-life point and start receive, and what a call that answered early ended with.
export type {
  ExtensionHost,
  ExtensionListenRequest,
  ExtensionListens,
  ExtensionMethod,
  ExtensionRequest,
  ExtensionResources,
  ExtensionSteps,
  FusionExtension
} from './extensions/extension';
export type { CallLifeTool, CallProgressReport, DetachedRun, ExtensionCall, ExtensionCallLife, LaterRound } from './extensions/call-life';
export type { CallOutcome, JsonRpcErrorObject } from './types/task-handle';
export type { TraceLinks } from './types/telemetry';

// The call: its context, dependency injection, middleware, presenters, progress.
export { CALL_AUTH, CALL_CONTEXT, CALL_SIGNAL, FUSION_APP } from './di/tokens';
export type { CallContext, CallContextBase, CallLogger, LogLevel, RequestExtra, ReservedContextField } from './types/context';
export type { FusionMiddleware, Middleware, MiddlewareFn, Next } from './types/middleware';
export { cappedList } from './presenters';
export type { CappedListOptions, PresentationContext, Presenter, PresenterRef } from './presenters';
/**
 * Makes a progress event for `yield` in a generator handler: `yield progress(40, 'rows loaded')`
 * (`percent` 0–100), or a count sent as given: `yield progress({ progress: 3, total: 7, message })`.
 * Values must increase (see `progress` in `pipeline/progress.ts`). Exported as a plain value, not
 * a re-export, so a call from a handler's loop reads a property rather than running a getter.
 */
export const progress: ProgressFunction = progressUpdate;
export type { ProgressCount, ProgressFunction, ProgressUpdate } from './pipeline/progress';

// Asking the user mid-call: the functions, what an interactive handler returns, the fields `ask` makes.
export { ask } from './interactive/ask';
export type {
  AnswersOf,
  BooleanField,
  Choices,
  EnumField,
  FieldDescriptor,
  Fields,
  MultiSelectField,
  NumberField,
  StringField,
  StringFormat
} from './interactive/ask';
export { requireInput } from './interactive/require-input';
export type { InputRequest, InputRound, RequireInputOptions } from './interactive/require-input';
export type { InputKind } from './types/core';
export type { FormSchema } from './interactive/answer-validator';
export { readInput, inputStatus, readRequestState } from './interactive/input-scope';
export type { InputStatus } from './interactive/input-scope';

// Errors: the base class and its codes, the one a tool throws, the one startup throws. The other
// classes are in `@mcpfusion/core/advanced`; `error.code` (an `ErrorCode`) tells them apart.
export { ConfigurationError, ErrorCode, FusionError, ToolError } from './errors';
export type { ErrorCodeValue } from './errors';

// Stores and coordination an app passes in (`tasks.store`, `continuationStore`, `concurrency`, `mutationLock`),
// and what their contracts take and return (a task's record, a claimed round, a released slot or lock).
export { InMemoryTaskStore } from './tasks/task-store';
export type { TaskFailure, TaskPatchOf, TaskStore } from './tasks/task-store';
export type { TaskPatch, TaskRecord, TaskStatus } from './tasks/task-record';
export { SqliteTaskStore } from './tasks/sqlite-task-store';
export type { SqliteDatabase } from './tasks/sqlite-task-store';
export type { TaskSettings } from './tasks/app-tasks';
export { SignedContinuationStore } from './interactive/continuation-store';
export type { ContinuationStore } from './interactive/continuation-store';
export type { ClaimOutcome } from './interactive/round-outcomes';
export type { CallQueue, CallQueueOptions, LockRelease, MutationLock, Release } from './concurrency';
export type { KeyGrant, LockGrant } from './types/lock';

// Authorization (the HTTP endpoint as an OAuth 2.1 resource server).
export type { AuthOptions } from './auth/http-auth';
export type { CallerAuth } from './types/context';
export { jwtVerifier } from './auth/jwt-verifier';
export type { JSONWebKeySet, JwtVerifierOptions } from './auth/jwt-verifier';
/**
 * The error a token verifier throws to refuse a token (the MCP SDK's, read from it on first use): with
 * `OAuthErrorCode.InvalidToken` the endpoint answers 401 with a `WWW-Authenticate` challenge.
 */
export { OAuthError } from './auth/oauth-error';
/** The OAuth error codes an `OAuthError` carries (the MCP SDK's, read on first use); a verifier refuses with `InvalidToken`. */
export { OAuthErrorCode } from './auth/oauth-error';
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
