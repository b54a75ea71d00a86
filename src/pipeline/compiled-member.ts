import type { Tool } from '@modelcontextprotocol/server';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import type { JsonSchema } from '../schema/json-schema';
import type { ToolInfo } from './call-context';
import type { CallState } from './call-state';
import type { CallKind } from './error-boundary';
import type { NamedStep } from './steps/named-step';

/**
 * Anything a request can run (a tool, a resource, a prompt, a completer), ready to serve:
 * its chain as data and composed, built once at startup. Kinds differ only in their terminal
 * and presentation steps, and in which stages apply.
 */
export interface CompiledMember {
  readonly kind: CallKind;
  readonly info: ToolInfo;
  /** What the continuation state of an interactive member is bound to. */
  readonly bindingName: string;
  /** Interactive: each issued `requestState` is accepted once. */
  readonly singleUseState: boolean;
  /** Interactive, read-only tools: answers sent with the first call are read. */
  readonly answersUpFront: boolean;
  /** The chain as data, in order (what `describeChain` shows). */
  readonly steps: readonly NamedStep[];
  /** The composed chain. */
  readonly run: (state: CallState) => Promise<unknown>;
}

/** A tool ready to serve: a member plus its descriptor and listing. */
export interface CompiledTool extends CompiledMember {
  readonly kind: 'tool';
  readonly descriptor: ToolDescriptor;
  /** The `tools/list` entry. */
  readonly listing: Tool;
  readonly outputSchema: JsonSchema | undefined;
}
