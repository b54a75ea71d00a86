/**
 * `@mcpfusion/core/advanced`: what an application needs only when it replaces or inspects a part
 * of the framework, kept out of the package root so the root's values stay what every app writes.
 *
 * - Building blocks for a queue, lock or event store of your own: the in-process defaults
 *   (`InProcessCallQueue`, `FifoMutex`, `BoundedSessionEventStore`), `raceAbort`, `Release`.
 * - Implementing a `TaskStore`: the record, its status and the patches a transition applies.
 * - Inspecting: `app.tools` (`ToolDescriptor`), `ctx.tool` (`ToolInfo`), the context's fields,
 *   the guards that tell an input round, a progress event or a `CallToolResult` apart.
 * - Every specific error class, for `instanceof` (the root's `FusionError` and `ErrorCode` are
 *   enough to tell failures apart by `error.code`).
 * - Writing an extension: `FusionExtension` and what its parts receive.
 *
 * Every type the root's own signatures use is also exported by the root (type-only): those listed
 * here as well (`ListenOptions`, `Gateway`, `Mount`, `FusionExtension`, `TaskRecord`, …) stay here so
 * that imports from this subpath keep working; import them from either.
 *
 * Nothing here is needed to write tools; docs/api.md says why each name is here.
 *
 * @packageDocumentation
 */

// Concurrency: the defaults behind `concurrency` and `mutationLock`, and what a custom one uses.
export { FifoMutex, InProcessCallQueue, raceAbort } from './concurrency';
export type { LockRelease, Release } from './concurrency';
export type { KeyGrant } from './types/lock';
export type { LockKeysFunction, SerializeOn } from './metadata/types';

// Extensions: what an extension is (the `extensions` option), the shapes its methods, resources, listens, steps,
// call-life point and start receive; the Skills extension's id.
export type { FusionExtension } from './extensions/extension';
export type { CallLifeTool, CallProgressReport, DetachedRun, ExtensionCall, ExtensionCallLife, LaterRound } from './extensions/call-life';
export type { CallOutcome, JsonRpcErrorObject } from './types/task-handle';
export type { TraceLinks } from './types/telemetry';
export type {
  ExtensionHost,
  ExtensionListenRequest,
  ExtensionListens,
  ExtensionMethod,
  ExtensionRequest,
  ExtensionResources,
  ExtensionSteps
} from './extensions/extension';
export { OFFICIAL_EXTENSION_IDS } from './extensions/extension-rules';
export { SKILLS_EXTENSION } from './skills/skills-extension';
// Composition: what an app gives to be mounted, and the naming rule of mount (and of a gateway's namespace).
export type { MountableApp } from './compose/mount';
export { namespacedName, namespacedUri, namespacedViewUri, unnamespacedName, unnamespacedUri } from './compose/namespace';

// Authorization from the MCP_AUTH_* environment variables (what `mcpfusion serve` and the sample app read).
export { authFromEnv } from './auth/auth-from-env';

// Tasks: what a custom `TaskStore` stores and applies.
export { TASKS_EXTENSION } from './tasks/task-record';
export type { TaskPatch, TaskRecord, TaskStatus } from './tasks/task-record';
export type { TaskFailure, TaskPatchOf } from './tasks/task-store';
// A custom `ContinuationStore`: what claiming an exactly-once round finds.
export type { ClaimOutcome } from './interactive/round-outcomes';
export type { SqliteDatabase } from './tasks/sqlite-task-store';
export type { ToolTaskSupport } from './types/tasks';

// HTTP: 2025-era session limits (`sessions` of the HTTP options) and their default event store.
export type { SessionOptions, SessionResumption } from './transports/http/session-registry';
export { BoundedSessionEventStore } from './transports/http/session-event-store';

// Introspection: what the app and a call know about a member, and the context's own fields.
export type { ToolDescriptor } from './metadata/tool-descriptor';
// Tooling: whether a class is a `@ToolProvider()` (how `mcpfusion dev` names one given to no app).
export { isToolProvider } from './metadata/is-tool-provider';
export type { CompleterRef } from './metadata/types';
// A member source's member that takes its input scope as a parameter (`ParamKind` `'inputScope'`) reads it with these.
export { readInputOf, inputStatusOf, type InputScope } from './interactive/input-scope';
export type { CallKind, Era, MemberKind, OutputSpec, ParamKind, RequestFacts, ToolInfo, ToolKind } from './types/core';
// The compile-time check of a tool's return type against its `output` (what `@Action` / `@Mutation` return).
export type { CheckedReturn, HandlerReturn, OutputCheckedDecorator, OutputValue } from './decorators/handler-return';
export type { CallContextBase, ReservedContextField } from './types/context';
export type { WithoutFrameworkFields } from './app/app-options';
export type { CallLogger, LogLevel } from './types/context';
export type { JsonSchema } from './types/core';
export type { PresenterRef } from './presenters';

// Guards and limits of the handler protocol (input rounds, progress, results).
export { isInputRound } from './interactive/require-input';
export type { InputRequest } from './interactive/require-input';
export type { InputKind } from './types/core';
export type {
  BooleanField,
  Choices,
  EnumField,
  FieldDescriptor,
  MultiSelectField,
  NumberField,
  StringField,
  StringFormat
} from './interactive/ask';
export type { FormSchema } from './interactive/answer-validator';
export { MAX_INPUT_ROUNDS } from './interactive/continuation';
export { isProgressUpdate } from './pipeline/progress';
export { isCallToolResult } from './presenters';

// The specific error classes (each a `FusionError` with its own `ErrorCode`).
export {
  AppClosedError,
  CalledToolNotFoundError,
  CancelledError,
  ElicitationUnsupportedError,
  InputDeclinedError,
  InputRoundsExceededError,
  InsufficientScopeError,
  InvalidInputError,
  InvalidParamsError,
  InvalidProgressError,
  InvalidRequestStateError,
  LockKeyError,
  MaskedError,
  MissingCapabilityError,
  NextCalledTwiceError,
  NotInteractiveError,
  OutputMismatchError,
  PresentationError,
  NothingToCompleteError,
  ServerBusyError,
  TaskInterruptedError,
  TaskLimitError,
  TaskNotFoundError,
  TimeoutError,
  UnknownPromptError,
  UpstreamError,
  UnknownResourceError,
  UnknownToolError
} from './errors';
export type { Violation } from './errors';
// The ranking behind `toolSearch` (BM25 over tool listings), to measure or reuse a search over any tool list.
export { ToolIndex } from './tool-search/tool-index';
export type { ToolSearchOptions, ToolSearchSetting } from './tool-search/tool-search-options';
export type { TelemetryOptions } from './telemetry/telemetry-options';

// Views (MCP Apps): the media type of a view's document and the extension's identifier, for hosts and tests.
export { UI_EXTENSION, VIEW_MIME_TYPE } from './views/view';

// What the root's functions and options take or return: `app.listen`, `providers`, `proxy`, `skills`, `mount`,
// `concurrency`, `ctx.lock`, `jwtVerifier`, and the shapes inside the root's options. The root exports them too
// (it exports every type its signatures use); they stay here so that existing imports from this subpath work.
export type { ListenOptions, ProviderSpec } from './app/app-options';
export type { Listening } from './app/listen';
export type { Gateway, UpstreamEra, UpstreamTarget } from './gateway';
// What an app serves of a gateway (`Gateway.memberSource`): members that are not methods of its classes, and their changes.
export type { MemberSource, MemberSourceListener } from './metadata/member-source';
// What a member source is handed of the app in front (its sessions), and what it offers of its upstream's tasks.
export type { FrontSessions } from './types/front-sessions';
export type { ForwardedTaskMethod, TaskForwarding } from './types/forwarded-tasks';
export type { PromptDescriptor, ResourceTemplateDescriptor, SurfaceMember } from './metadata/surface-descriptors';
export type { MemberMeta } from './types/display';
export type { SkillsOptions } from './skills/skills-extension';
export type { Mount } from './compose/mount';
export type { CallQueueOptions } from './concurrency';
export type { LockGrant } from './types/lock';
export type { JSONWebKeySet } from './auth/jwt-verifier';
export type { Icon } from './types/display';
export type { ViewCsp } from './types/view-options';
export type { CappedListOptions } from './presenters';

// The gateway as a process serves it (`mcpfusion serve`, in @mcpfusion/cli): one upstream behind an HTTP endpoint.
export { serveGateway } from './gateway/serve';
export type { ServedGateway, ServeSettings } from './gateway/serve';
export type { EarlyHttpServer } from './transports/http/early-server';
