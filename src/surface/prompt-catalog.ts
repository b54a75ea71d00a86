import type { Prompt } from '@modelcontextprotocol/server';
import type { PromptDescriptor } from '../metadata/surface-descriptors';
import type { ChainDependencies } from '../pipeline/chain-builder';
import type { CompiledMember } from '../pipeline/compiled-member';
import { invokeStep } from '../pipeline/steps/invoke.step';
import { presentPromptStep } from '../pipeline/steps/present-surface.step';
import type { SchemaCatalog } from '../schema/json-schema';
import { schemaValidator } from '../schema/schema-validator';
import type { JsonSchema } from '../types/core';
import { listedDisplay } from '../metadata/member-display';
import { compileCompleters, compileSurfaceMember } from './surface-members';

interface CompiledPrompt {
  readonly descriptor: PromptDescriptor;
  readonly render: CompiledMember;
  readonly completers: ReadonlyMap<string, CompiledMember>;
}

/** The app's prompts: the listing and the chains built once; `prompts/get` runs a prompt's chain, like a tool's. */
export class PromptCatalog {
  private readonly prompts: Map<string, CompiledPrompt>;
  readonly listing: readonly Prompt[];

  constructor(prompts: readonly PromptDescriptor[], catalog: SchemaCatalog, deps: ChainDependencies) {
    this.prompts = new Map(
      prompts.map((descriptor) => [
        descriptor.name,
        {
          descriptor,
          render: compileSurfaceMember(
            descriptor,
            {
              kind: 'prompt',
              name: descriptor.name,
              label: `Prompt ${descriptor.name}`,
              present: presentPromptStep(
                `Prompt ${descriptor.name} (${descriptor.className}.${descriptor.methodName})`,
                descriptor.description
              ),
              terminal: invokeStep('render-prompt', descriptor.target, descriptor.methodName, descriptor.params),
              validate: descriptor.listedArguments
                ? schemaValidator(argumentsSchema(descriptor.listedArguments), `prompt ${descriptor.name}`)
                : catalog.validatorOf(descriptor.inputType, `${descriptor.className}.${descriptor.methodName}`)
            },
            deps
          ),
          completers: compileCompleters(descriptor, descriptor.name, deps)
        }
      ])
    );
    this.listing = Object.freeze(prompts.map((p) => describePrompt(p, catalog)));
  }

  get size(): number {
    return this.prompts.size;
  }

  /** The entries of the prompts a caller may use (`allowed` says of a member's scopes). */
  listingFor(allowed: (scopes: readonly string[]) => boolean): readonly Prompt[] {
    return this.listing.filter((entry) => allowed(this.prompts.get(entry.name)!.render.info.scopes));
  }

  /** A prompt's chain by name. */
  get(name: string): CompiledMember | undefined {
    return this.prompts.get(name)?.render;
  }

  /** The completer chain of a prompt's argument, when it has one. */
  completer(name: string, argument: string): { known: boolean; member?: CompiledMember } {
    const prompt = this.prompts.get(name);
    return { known: prompt !== undefined, member: prompt?.completers.get(argument) };
  }
}

/** A prompt's listing: its arguments are the input class's properties (strings). */
function describePrompt(prompt: PromptDescriptor, catalog: SchemaCatalog): Prompt {
  if (prompt.listedArguments) {
    const listed = prompt.listedArguments.map((argument) => ({ ...argument }));
    return {
      name: prompt.name,
      ...listedDisplay(prompt),
      description: prompt.description,
      ...(listed.length > 0 ? { arguments: listed } : {})
    };
  }
  const schema = prompt.inputType ? catalog.schemaOf(prompt.inputType) : undefined;
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const args = Object.entries(properties).map(([name, property]) => ({
    name,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    required: required.has(name)
  }));
  return {
    name: prompt.name,
    ...listedDisplay(prompt),
    description: prompt.description,
    ...(args.length > 0 ? { arguments: args } : {})
  };
}

/** The input schema of listed prompt arguments: strings, the required ones required, nothing else. */
function argumentsSchema(listed: NonNullable<PromptDescriptor['listedArguments']>): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(listed.map((argument) => [argument.name, { type: 'string' }])),
    required: listed.filter((argument) => argument.required).map((argument) => argument.name),
    additionalProperties: false
  };
}
