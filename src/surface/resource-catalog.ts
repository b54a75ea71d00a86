import { namespacedUri } from '../compose/namespace';
import { InvalidParamsError, UnknownResourceError } from '../errors';
import type { Resource, ResourceTemplateType, UriTemplate } from '@modelcontextprotocol/server';
import { serverSdk } from '../wire/server-sdk';
import type { ResourceDescriptor, ResourceTemplateDescriptor } from '../metadata/surface-descriptors';
import type { ChainDependencies } from '../pipeline/chain-builder';
import type { CompiledMember } from '../pipeline/compiled-member';
import { invokeStep } from '../pipeline/steps/invoke.step';
import { presentResourceListStep, presentResourceStep } from '../pipeline/steps/present-surface.step';
import type { SchemaCatalog } from '../schema/json-schema';
import { compileCompleters, compileSurfaceMember } from './surface-members';
import { listedDisplay } from '../metadata/member-display';
import type { CompiledView } from '../views/compile-views';

/** A resource at a fixed URI (a decorated method's, or a view's): its listing entry, scopes and chain. */
interface FixedResource {
  readonly listing: Resource;
  readonly scopes: readonly string[];
  readonly read: CompiledMember;
}

interface CompiledTemplate {
  readonly descriptor: ResourceTemplateDescriptor;
  readonly template: UriTemplate;
  readonly read: CompiledMember;
  /** The chain of its `list` method, when it has one. */
  readonly list?: CompiledMember;
  readonly completers: ReadonlyMap<string, CompiledMember>;
}

/** What a `resources/read` of a URI runs: the member, and the arguments (template variables) it reads. */
export interface ResourceTarget {
  readonly member: CompiledMember;
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * The app's resources and resource templates: listings and chains built once; a read finds the
 * member by URI and the engine runs its chain, like a tool's.
 */
const ALL = (): boolean => true;

export class ResourceCatalog {
  private readonly byUri: Map<string, FixedResource>;
  private readonly templates: CompiledTemplate[];

  constructor(
    resources: readonly ResourceDescriptor[],
    templates: readonly ResourceTemplateDescriptor[],
    catalog: SchemaCatalog,
    deps: ChainDependencies,
    /** The app's views, compiled once (they do not change with the tool classes). */
    views: readonly CompiledView[] = []
  ) {
    this.byUri = new Map<string, FixedResource>(
      resources.map((descriptor) => [
        descriptor.uri,
        {
          listing: describeResource(descriptor),
          scopes: descriptor.scopes,
          read: compileSurfaceMember(
            descriptor,
            {
              kind: 'resource',
              name: descriptor.uri,
              label: `Resource ${descriptor.uri}`,
              present: presentResourceStep(`Resource ${descriptor.uri}`, descriptor.mimeType, catalog.allowlistOf(descriptor.output)),
              terminal: invokeStep('read-resource', descriptor.target, descriptor.methodName, descriptor.params)
            },
            deps
          )
        }
      ])
    );
    for (const view of views) this.byUri.set(view.uri, view);
    this.templates = templates.map((descriptor) => {
      const where = `Resource template ${descriptor.uriTemplate} (${descriptor.className}.${descriptor.methodName})`;
      return {
        descriptor,
        template: new (serverSdk().UriTemplate)(descriptor.uriTemplate),
        read: compileSurfaceMember(
          descriptor,
          {
            kind: 'resource',
            name: descriptor.uriTemplate,
            label: `Resource ${descriptor.uriTemplate}`,
            present: presentResourceStep(where, descriptor.mimeType, catalog.allowlistOf(descriptor.output)),
            terminal: invokeStep('read-resource', descriptor.target, descriptor.methodName, descriptor.params),
            validate: descriptor.inputType
              ? catalog.validatorOf(descriptor.inputType, `${descriptor.className}.${descriptor.methodName}`)
              : undefined
          },
          deps
        ),
        list: descriptor.list
          ? compileSurfaceMember(
              descriptor,
              {
                kind: 'resource',
                name: descriptor.uriTemplate,
                label: `Resource list of ${descriptor.uriTemplate}`,
                // A mounted template's list method names its resources by their own URIs: listed under the mount's namespace.
                present: presentResourceListStep(
                  `The list method ${descriptor.className}.${descriptor.list}`,
                  mountedUriOf(descriptor.mountedUnder)
                ),
                terminal: invokeStep('list-resources', descriptor.target, descriptor.list, []),
                interactive: false,
                methodName: descriptor.list
              },
              deps
            )
          : undefined,
        completers: compileCompleters(descriptor, descriptor.uriTemplate, deps)
      };
    });
  }

  get size(): number {
    return this.byUri.size + this.templates.length;
  }

  /** The fixed resources' entries of `resources/list` (the templates' `list` chains add the rest). */
  fixedListing(allowed: (scopes: readonly string[]) => boolean = ALL): Resource[] {
    return [...this.byUri.values()].filter(({ scopes }) => allowed(scopes)).map(({ listing }) => ({ ...listing }));
  }

  /** The `list` chains of the templates that have one. */
  listMembers(allowed: (scopes: readonly string[]) => boolean = ALL): CompiledMember[] {
    return this.templates.flatMap((t) => (t.list && allowed(t.descriptor.scopes) ? [t.list] : []));
  }

  /** `resources/templates/list`. */
  listTemplates(allowed: (scopes: readonly string[]) => boolean = ALL): ResourceTemplateType[] {
    return this.templates
      .filter(({ descriptor }) => !descriptor.unlisted && allowed(descriptor.scopes))
      .map(({ descriptor: t }) => ({
        uriTemplate: t.uriTemplate,
        name: t.name,
        ...listedDisplay(t),
        ...(t.description ? { description: t.description } : {}),
        ...(t.mimeType ? { mimeType: t.mimeType } : {})
      }));
  }

  /** The completer chain of a template's variable, when it has one (`undefined` template: unknown). */
  completer(uriTemplate: string, argument: string): { known: boolean; member?: CompiledMember } {
    const template = this.templates.find((t) => t.descriptor.uriTemplate === uriTemplate);
    return { known: template !== undefined, member: template?.completers.get(argument) };
  }

  /** A member's chain by the name it is known by (URI or URI template), for `describeChain`. */
  member(name: string): CompiledMember | undefined {
    return this.byUri.get(name)?.read ?? this.templates.find((t) => t.descriptor.uriTemplate === name)?.read;
  }

  /** What `resources/read` of `uri` runs: a fixed resource, else the first template that matches; unknown → -32602 with `data.uri`. */
  resolve(uri: string): ResourceTarget {
    const fixed = this.byUri.get(uri);
    if (fixed) return { member: fixed.read, arguments: {} };
    for (const { template, read } of this.templates) {
      const variables = template.match(uri);
      if (variables) return { member: read, arguments: decodeVariables(uri, variables) };
    }
    throw new UnknownResourceError(uri);
  }
}

/** A decorated resource's `resources/list` entry. */
function describeResource(r: ResourceDescriptor): Resource {
  return {
    uri: r.uri,
    name: r.name,
    ...listedDisplay(r),
    ...(r.description ? { description: r.description } : {}),
    ...(r.mimeType ? { mimeType: r.mimeType } : {})
  };
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
      throw new InvalidParamsError(`Invalid URI ${uri}: malformed percent-encoding in ${JSON.stringify(value)}`);
    }
  };
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(variables)) out[name] = Array.isArray(value) ? value.map(decode).join(',') : decode(value);
  return out;
}

/** How a list method's URIs are listed: under the namespace its template is mounted under, or as returned. */
function mountedUriOf(namespace: string | undefined): ((uri: string) => string) | undefined {
  return namespace === undefined ? undefined : (uri) => namespacedUri(namespace, uri);
}
