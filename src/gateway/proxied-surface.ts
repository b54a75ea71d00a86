import type { Prompt, ResourceTemplateType } from '@modelcontextprotocol/client';
import { UriTemplate } from '@modelcontextprotocol/server';
import type { Completer } from '../metadata/types';
import type { PromptDescriptor, ResourceTemplateDescriptor } from '../metadata/surface-descriptors';
import type { Constructor } from '../types/core';
import { namespacedName, namespacedUri } from './namespace';

/** How the surface's completers reach the upstream. */
export type UpstreamCompleter = (
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
  argument: string
) => Completer;

/** What the gateway's resources and prompts are compiled from, and the upstream name behind each front prompt. */
export interface ProxiedSurface {
  readonly templates: readonly ResourceTemplateDescriptor[];
  readonly prompts: readonly PromptDescriptor[];
  readonly promptOf: ReadonlyMap<string, string>;
}

/** What every descriptor of a gateway shares. */
interface Common {
  readonly members: Constructor;
  readonly label: string;
  readonly scopes: readonly string[];
  readonly timeoutMs?: number;
}

/**
 * The gateway's resources and prompts as the app serves them. Resources: one catch-all route
 * under the namespace (`desk+{+uri}`, not listed itself) reads every upstream URI and lists the
 * upstream's resources (their URIs namespaced, see `namespacedUri`); each upstream template is
 * listed under the namespace, with completions forwarded. Prompts: each upstream prompt under
 * `<namespace>.<name>`, its arguments as listed upstream, completions forwarded.
 */
export function proxiedSurface(
  namespace: string | undefined,
  templates: readonly ResourceTemplateType[] | undefined,
  prompts: readonly Prompt[] | undefined,
  common: Common,
  completer: UpstreamCompleter | undefined
): ProxiedSurface {
  const shared = {
    target: common.members,
    className: common.label,
    interactive: false,
    singleUseState: false,
    middleware: [],
    scopes: common.scopes,
    ...(common.timeoutMs !== undefined ? { timeoutMs: common.timeoutMs } : {})
  };
  const out: ResourceTemplateDescriptor[] = [];
  if (templates) {
    // First among the gateway's templates: every read of a URI under the namespace goes upstream as it is.
    out.push(
      Object.freeze({
        ...shared,
        kind: 'resource-template' as const,
        uriTemplate: namespacedUri(namespace, '{+uri}'),
        name: `${namespace ?? 'upstream'}-resources`,
        methodName: 'readResource',
        params: Object.freeze(['input', 'context', 'signal'] as const),
        complete: {},
        list: 'listResources',
        unlisted: true
      })
    );
    for (const template of templates) {
      const variables = safeVariables(template.uriTemplate);
      out.push(
        Object.freeze({
          ...shared,
          kind: 'resource-template' as const,
          uriTemplate: namespacedUri(namespace, template.uriTemplate),
          name: template.name,
          ...(template.title ? { title: template.title } : {}),
          ...(template.description ? { description: template.description } : {}),
          ...(template.mimeType ? { mimeType: template.mimeType } : {}),
          methodName: 'readResource',
          params: Object.freeze(['input', 'context', 'signal'] as const),
          complete: completer
            ? Object.fromEntries(variables.map((name) => [name, completer({ type: 'ref/resource', uri: template.uriTemplate }, name)]))
            : {}
        })
      );
    }
  }
  const promptOf = new Map<string, string>();
  const described: PromptDescriptor[] = [];
  for (const prompt of prompts ?? []) {
    const name = namespacedName(namespace, prompt.name);
    if (promptOf.has(name)) continue;
    promptOf.set(name, prompt.name);
    const listed = (prompt.arguments ?? []).map((argument) => ({
      name: argument.name,
      ...(argument.description ? { description: argument.description } : {}),
      required: argument.required === true
    }));
    described.push(
      Object.freeze({
        ...shared,
        kind: 'prompt' as const,
        // A 2026-07-28 upstream's prompt may answer with a round: it goes to the front client (see `renderThroughRounds`).
        interactive: true,
        name,
        ...(prompt.title ? { title: prompt.title } : {}),
        description: prompt.description ?? `${prompt.name}, served by ${common.label}`,
        methodName: 'renderPrompt',
        params: Object.freeze(['input', 'context', 'signal', 'inputScope'] as const),
        complete: completer
          ? Object.fromEntries(
              listed.map(({ name: argument }) => [argument, completer({ type: 'ref/prompt', name: prompt.name }, argument)])
            )
          : {},
        listedArguments: Object.freeze(listed)
      })
    );
  }
  return { templates: out, prompts: described, promptOf };
}

/** A template's variable names, or none when the upstream's template does not parse. */
function safeVariables(uriTemplate: string): string[] {
  try {
    return [...new UriTemplate(uriTemplate).variableNames];
  } catch {
    return [];
  }
}
