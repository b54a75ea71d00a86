import 'reflect-metadata';
// Registers the test harness behind `app.callTool` (the app reaches it through an internal seam).
import './testing/harness';

export { FusionApp } from './app/fusion-app';
export type { DirectCallOptions, Listening } from './app/fusion-app';
export type { HarnessInputAnswer, HarnessInputRequest } from './types/harness';
export type { FusionAppOptions, ListenOptions, ProviderSpec } from './app/app-options';
export { Action, Ctx, Input, Interactive, Mutation, Prompt, Resource, ResourceTemplate, Signal, ToolProvider } from './decorators';
export { CALL_AUTH, CALL_CONTEXT, CALL_SIGNAL, FUSION_APP } from './di/tokens';
export { jwtVerifier } from './auth/jwt-verifier';
export type { JSONWebKeySet, JwtVerifierOptions } from './auth/jwt-verifier';
export type { AuthOptions } from './auth/http-auth';
export type { CallerAuth } from './auth/caller-auth';
export { InMemoryTaskStore } from './tasks/task-store';
export type { TaskStore, TaskPatchOf } from './tasks/task-store';
export { SqliteTaskStore } from './tasks/sqlite-task-store';
export type { SqliteDatabase } from './tasks/sqlite-task-store';
export { TASKS_EXTENSION } from './tasks/task-record';
export type { TaskPatch, TaskRecord, TaskStatus } from './tasks/task-record';
export type { TaskSettings } from './tasks/app-tasks';
export type { ToolTaskSupport } from './types/tasks';
export { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
export type { AuthInfo, OAuthTokenVerifier } from '@modelcontextprotocol/server';
export * from './errors';
export { FifoMutex, InProcessCallQueue, raceAbort } from './concurrency';
export type { CallQueue, CallQueueOptions, MutationLock, Release } from './concurrency';
export type { CallContext, CallContextBase, RequestExtra, ToolInfo } from './pipeline/call-context';
export type { FusionMiddleware, Middleware, MiddlewareFn, Next } from './pipeline/middleware';
import { progress as progressEvent } from './pipeline/progress';
export { isProgressEvent } from './pipeline/progress';
/**
 * Makes a progress event for `yield` in a generator handler (see `progress` in
 * `pipeline/progress.ts`). Exported as a plain value, not a re-export, so a call from a
 * handler's loop reads a property rather than running a getter.
 */
export const progress: typeof progressEvent = progressEvent;
export type { ProgressEvent } from './pipeline/progress';
export { cappedList, isCallToolResult } from './presenters';
export type { CappedListOptions, PresentationContext, Presenter, PresenterRef } from './presenters';
export type { ToolDescriptor } from './metadata/tool-descriptor';
export type {
  Completer,
  CompleterRef,
  Constructor,
  InteractiveOptions,
  MemberKind,
  OutputSpec,
  PromptOptions,
  ResourceOptions,
  ResourceTemplateOptions,
  ToolKind,
  ToolOptions,
  ToolProviderOptions
} from './metadata/types';
export type { CallLogger, LogLevel } from './pipeline/call-log';
export type { JsonSchema } from './schema/json-schema';
export { JSONSchema } from 'class-validator-jsonschema';
export { createFusionHttpHandler } from './transports/http/fusion-http-handler';
export type { FusionHttpHandler, HttpHandlerOptions } from './transports/http/fusion-http-handler';
export type { SessionOptions } from './transports/http/session-registry';
export { BoundedSessionEventStore } from './transports/http/session-event-store';
export { ask } from './interactive/ask';
export type { AnswersOf, Choices, FieldDescriptor, Fields, StringFormat } from './interactive/ask';
export { requireInput, isInputRound } from './interactive/require-input';
export type { InputKind, InputRequest, InputRound, RequireInputOptions } from './interactive/require-input';
export { readInput, inputStatus, readRequestState } from './interactive/input-scope';
export type { InputStatus } from './interactive/input-scope';
export { MAX_INPUT_ROUNDS } from './interactive/continuation';
export { SignedContinuationStore } from './interactive/continuation-store';
export type { ContinuationStore } from './interactive/continuation-store';
