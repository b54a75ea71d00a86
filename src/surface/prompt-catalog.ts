import {
  ProtocolError,
  ProtocolErrorCode,
  type GetPromptResult,
  type InputRequiredResult,
  type Prompt
} from '@modelcontextprotocol/server';
import type { PromptDescriptor } from '../metadata/surface-descriptors';
import type { InputValidator } from '../schema/input-validator';
import type { JsonSchema, SchemaCatalog } from '../schema/json-schema';
import { toPromptResult } from './content';
import { invokeMember, type InvokerDependencies, type SurfaceCall } from './member-invoker';

/** The app's prompts: the listing built once, `prompts/get` validated like tool input. */
export class PromptCatalog {
  private readonly prompts: Map<string, PromptDescriptor>;
  private readonly validators: Map<string, InputValidator>;
  readonly listing: readonly Prompt[];

  constructor(
    prompts: readonly PromptDescriptor[],
    catalog: SchemaCatalog,
    private readonly deps: InvokerDependencies
  ) {
    this.prompts = new Map(prompts.map((p) => [p.name, p]));
    this.validators = new Map(prompts.map((p) => [p.name, catalog.validatorOf(p.inputType, `${p.className}.${p.methodName}`)]));
    this.listing = Object.freeze(prompts.map((p) => describePrompt(p, catalog)));
  }

  get size(): number {
    return this.prompts.size;
  }

  get(name: string): PromptDescriptor | undefined {
    return this.prompts.get(name);
  }

  /** `prompts/get`: unknown prompt or invalid arguments → -32602 naming what is wrong. */
  async render(name: string, args: Readonly<Record<string, unknown>>, call: SurfaceCall): Promise<GetPromptResult | InputRequiredResult> {
    const prompt = this.prompts.get(name);
    if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    const validated = this.validators.get(name)!(args);
    if (validated.violations) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid arguments for prompt ${name}: ${validated.violations.map((v) => `${v.path}: ${v.message}`).join('; ')}`
      );
    }
    const info = { name, kind: prompt.kind, interactive: prompt.interactive, className: prompt.className, methodName: prompt.methodName };
    const outcome = await invokeMember(this.deps, prompt, info, args, validated.value, call);
    return 'inputRequired' in outcome ? outcome.inputRequired : toPromptResult(outcome.value, prompt.description);
  }
}

/** A prompt's listing: its arguments are the input class's properties (strings). */
function describePrompt(prompt: PromptDescriptor, catalog: SchemaCatalog): Prompt {
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
    ...(prompt.title ? { title: prompt.title } : {}),
    description: prompt.description,
    ...(args.length > 0 ? { arguments: args } : {})
  };
}
