export type { CallContext, CallContextBase, ContextFactory, RequestExtra } from '../types/context';
export type { RequestFacts, ToolInfo } from '../types/core';
