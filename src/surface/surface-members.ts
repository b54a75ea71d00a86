import { classOptionsOf } from '../metadata/registry-builder';
import type { PromptDescriptor, ResourceDescriptor, ResourceTemplateDescriptor } from '../metadata/surface-descriptors';
import type { CompleterRef, Constructor } from '../metadata/types';
import type { ToolInfo } from '../pipeline/call-context';
import { buildChain, resolvedClasses, type ChainDependencies } from '../pipeline/chain-builder';
import type { CompiledMember } from '../pipeline/compiled-member';
import type { CallKind } from '../pipeline/error-boundary';
import { completeArgumentStep } from '../pipeline/steps/complete-argument.step';
import type { NamedStep } from '../pipeline/steps/named-step';
import { presentCompletionStep } from '../pipeline/steps/present-surface.step';
import type { InputValidator } from '../schema/input-validator';

type SurfaceDescriptor = ResourceDescriptor | ResourceTemplateDescriptor | PromptDescriptor;

/** What a resource's, a template's or a prompt's chain needs beyond its descriptor. */
export interface SurfaceMemberSpec {
  readonly kind: CallKind;
  /** The name it is known by (the prompt's name, the resource's URI or URI template). */
  readonly name: string;
  readonly label: string;
  readonly present: NamedStep;
  readonly terminal: NamedStep;
  readonly validate?: InputValidator;
  /** Overrides the descriptor's (a template's `list` method is not interactive). */
  readonly interactive?: boolean;
  readonly methodName?: string;
}

/** Compiles one chain of a resource, template, `list` method or prompt: the same stages as a tool's. */
export function compileSurfaceMember(descriptor: SurfaceDescriptor, spec: SurfaceMemberSpec, deps: ChainDependencies): CompiledMember {
  const interactive = spec.interactive ?? descriptor.interactive;
  const info: ToolInfo = Object.freeze({
    name: spec.name,
    kind: descriptor.kind,
    interactive,
    className: descriptor.className,
    methodName: spec.methodName ?? descriptor.methodName,
    scopes: descriptor.scopes
  });
  const middleware = [...classMiddleware(descriptor.target), ...descriptor.middleware];
  const { steps, run } = buildChain(
    {
      name: spec.name,
      label: spec.label,
      scopes: descriptor.scopes,
      timeoutMs: spec.kind === 'completion' ? undefined : descriptor.timeoutMs,
      present: spec.present,
      interactive,
      mutation: false,
      isGenerator: false,
      middleware,
      validate: spec.validate,
      perCall: deps.needsCallScope(resolvedClasses(descriptor.target, [...deps.globalMiddleware, ...middleware])),
      terminal: spec.terminal
    },
    deps
  );
  return Object.freeze({
    kind: spec.kind,
    info,
    bindingName: `${descriptor.kind}:${spec.name}`,
    singleUseState: interactive && descriptor.singleUseState,
    answersUpFront: false,
    steps,
    run
  });
}

/** The chains of an owner's completers, by argument name. */
export function compileCompleters(
  owner: ResourceTemplateDescriptor | PromptDescriptor,
  name: string,
  deps: ChainDependencies
): ReadonlyMap<string, CompiledMember> {
  const out = new Map<string, CompiledMember>();
  for (const [argument, ref] of Object.entries(owner.complete) as Array<[string, CompleterRef]>) {
    out.set(
      argument,
      compileSurfaceMember(
        owner,
        {
          kind: 'completion',
          name,
          label: `Completion of ${argument} for ${name}`,
          present: presentCompletionStep(`The completer of ${argument} for ${name}`),
          terminal: completeArgumentStep(owner.target, ref),
          interactive: false,
          methodName: typeof ref === 'string' ? ref : `complete:${argument}`
        },
        deps
      )
    );
  }
  return out;
}

/** The middleware of a class's `@ToolProvider({ middleware })`, which applies to its resources and prompts as to its tools. */
function classMiddleware(target: Constructor) {
  return classOptionsOf(target).middleware ?? [];
}
