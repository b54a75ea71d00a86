import type { Tool } from '@modelcontextprotocol/server';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import type { JsonSchema } from '../schema/json-schema';
import type { ToolInfo } from './call-context';
import type { CallState } from './call-state';
import type { NamedStep } from './steps/named-step';

/** A tool ready to serve: its descriptor, its listing and its chain, all built once at startup. */
export interface CompiledTool {
  readonly descriptor: ToolDescriptor;
  readonly info: ToolInfo;
  /** The `tools/list` entry. */
  readonly listing: Tool;
  readonly outputSchema: JsonSchema | undefined;
  /** The chain as data, in order. */
  readonly steps: readonly NamedStep[];
  /** The composed chain. */
  readonly run: (state: CallState) => Promise<unknown>;
}
