import type { Tool } from '@modelcontextprotocol/server';
import type { ToolDescriptor } from '../metadata/tool-descriptor';
import type { JsonSchema } from '../types/core';
import type { CompiledMember } from './call-state';
import type { NamedStep } from './steps/named-step';

export type { CompiledMember } from './call-state';

/** A tool ready to serve: a member plus its descriptor and listing. */
export interface CompiledTool extends CompiledMember {
  readonly kind: 'tool';
  readonly descriptor: ToolDescriptor;
  /** The `tools/list` entry. */
  readonly listing: Tool;
  readonly outputSchema: JsonSchema | undefined;
  readonly steps: readonly NamedStep[];
}
