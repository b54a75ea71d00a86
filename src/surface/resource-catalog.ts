import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  UriTemplate,
  type InputRequiredResult,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType
} from '@modelcontextprotocol/server';
import type { InputValidator } from '../schema/input-validator';
import type { JsonSchema, SchemaCatalog } from '../schema/json-schema';
import type { ResourceDescriptor, ResourceTemplateDescriptor } from '../metadata/surface-descriptors';
import { toResourceContents } from './content';
import { invokeMember, type InvokerDependencies, type SurfaceCall } from './member-invoker';

interface CompiledTemplate {
  readonly descriptor: ResourceTemplateDescriptor;
  readonly template: UriTemplate;
  /** Absent when the template takes no `@Input()`: its variables are the strings matched. */
  readonly validate?: InputValidator;
  /** The allowlist of what it returns (`output`). */
  readonly allowlist?: JsonSchema;
}

/** The app's resources and resource templates: listings built once, reads dispatched by URI. */
export class ResourceCatalog {
  private readonly byUri: Map<string, ResourceDescriptor>;
  private readonly allowlists: Map<string, JsonSchema | undefined>;
  private readonly templates: CompiledTemplate[];

  constructor(
    resources: readonly ResourceDescriptor[],
    templates: readonly ResourceTemplateDescriptor[],
    catalog: SchemaCatalog,
    private readonly deps: InvokerDependencies
  ) {
    this.byUri = new Map(resources.map((r) => [r.uri, r]));
    this.allowlists = new Map(resources.map((r) => [r.uri, catalog.allowlistOf(r.output)]));
    this.templates = templates.map((descriptor) => ({
      allowlist: catalog.allowlistOf(descriptor.output),
      descriptor,
      template: new UriTemplate(descriptor.uriTemplate),
      validate: descriptor.inputType
        ? catalog.validatorOf(descriptor.inputType, `${descriptor.className}.${descriptor.methodName}`)
        : undefined
    }));
  }

  get size(): number {
    return this.byUri.size + this.templates.length;
  }

  /** `resources/list`: the fixed resources, then what each template's `list` method returns. */
  async list(call: SurfaceCall): Promise<Resource[]> {
    const fixed: Resource[] = [...this.byUri.values()].map((r) => ({
      uri: r.uri,
      name: r.name,
      ...(r.title ? { title: r.title } : {}),
      ...(r.description ? { description: r.description } : {}),
      ...(r.mimeType ? { mimeType: r.mimeType } : {})
    }));
    for (const { descriptor } of this.templates) {
      if (!descriptor.list) continue;
      const member = { ...descriptor, methodName: descriptor.list, params: [], interactive: false };
      const info = {
        name: descriptor.name,
        kind: descriptor.kind,
        interactive: false,
        className: descriptor.className,
        methodName: descriptor.list
      };
      const outcome = await invokeMember(this.deps, member, info, {}, undefined, call);
      if ('value' in outcome && Array.isArray(outcome.value)) fixed.push(...(outcome.value as Resource[]));
    }
    return fixed;
  }

  /** `resources/templates/list`. */
  listTemplates(): ResourceTemplateType[] {
    return this.templates.map(({ descriptor: t }) => ({
      uriTemplate: t.uriTemplate,
      name: t.name,
      ...(t.title ? { title: t.title } : {}),
      ...(t.description ? { description: t.description } : {}),
      ...(t.mimeType ? { mimeType: t.mimeType } : {})
    }));
  }

  /** A template by its URI template (for completion). */
  template(uriTemplate: string): ResourceTemplateDescriptor | undefined {
    return this.templates.find((t) => t.descriptor.uriTemplate === uriTemplate)?.descriptor;
  }

  /** `resources/read`: a fixed resource, else the first template that matches; unknown → -32602 with `data.uri`. */
  async read(uri: string, call: SurfaceCall): Promise<ReadResourceResult | InputRequiredResult> {
    const fixed = this.byUri.get(uri);
    if (fixed) {
      const outcome = await invokeMember(this.deps, fixed, info(fixed, fixed.uri), {}, undefined, call);
      return 'value' in outcome ? toResourceContents(uri, outcome.value, fixed.mimeType, this.allowlists.get(uri)) : outcome.inputRequired;
    }
    for (const { descriptor, template, validate, allowlist } of this.templates) {
      const variables = template.match(uri);
      if (!variables) continue;
      const args = decodeVariables(uri, variables);
      const validated = validate ? validate(args) : { value: args };
      if (validated.violations) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Invalid URI ${uri}: ${validated.violations.map((v) => `${v.path}: ${v.message}`).join('; ')}`
        );
      }
      const input = validated.value;
      const outcome = await invokeMember(this.deps, descriptor, info(descriptor, descriptor.uriTemplate), args, input, call);
      if ('inputRequired' in outcome) return outcome.inputRequired;
      if (outcome.value === undefined || outcome.value === null) throw new ResourceNotFoundError(uri);
      return toResourceContents(uri, outcome.value, descriptor.mimeType, allowlist);
    }
    throw new ResourceNotFoundError(uri);
  }
}

function info(member: ResourceDescriptor | ResourceTemplateDescriptor, name: string) {
  return { name, kind: member.kind, interactive: member.interactive, className: member.className, methodName: member.methodName };
}

/**
 * The matched variables as the values a client expanded into the URI: percent-decoded (RFC
 * 6570 simple expansion encodes them), lists joined with commas. Malformed escapes are -32602.
 */
function decodeVariables(uri: string, variables: Record<string, string | string[]>): Record<string, string> {
  const decode = (value: string): string => {
    try {
      return decodeURIComponent(value);
    } catch {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid URI ${uri}: malformed percent-encoding in ${JSON.stringify(value)}`
      );
    }
  };
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(variables)) out[name] = Array.isArray(value) ? value.map(decode).join(',') : decode(value);
  return out;
}
