import type { PromptDescriptor, ResourceDescriptor, ResourceTemplateDescriptor } from '../metadata/surface-descriptors';
import type { ChainDependencies } from '../pipeline/chain-builder';
import type { CompiledMember } from '../pipeline/compiled-member';
import { compileMember } from '../pipeline/compile-member';
import { memberInfo } from '../pipeline/member-spec';
import { completeArgumentStep } from '../pipeline/steps/complete-argument.step';
import type { NamedStep } from '../pipeline/steps/named-step';
import { presentCompletionStep } from '../pipeline/steps/present-surface.step';
import type { InputValidator } from '../schema/input-validator';
import type { CompleterRef } from '../metadata/types';
import type { CallKind } from '../types/core';

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

/** Compiles one chain of a resource, template, `list` method or prompt through the one compile path. */
export function compileSurfaceMember(descriptor: SurfaceDescriptor, spec: SurfaceMemberSpec, deps: ChainDependencies): CompiledMember {
  return compileMember(
    {
      kind: spec.kind,
      info: memberInfo(
        spec.name,
        descriptor.kind,
        spec.interactive ?? descriptor.interactive,
        descriptor.className,
        spec.methodName ?? descriptor.methodName,
        descriptor.scopes
      ),
      label: spec.label,
      target: descriptor.target,
      singleUseState: descriptor.singleUseState,
      bindingName: `${descriptor.kind}:${spec.name}`,
      timeoutMs: spec.kind === 'completion' ? undefined : descriptor.timeoutMs,
      middleware: descriptor.middleware,
      validate: spec.validate,
      present: spec.present,
      terminal: spec.terminal,
      inputScopeParam: spec.kind !== 'completion' && descriptor.params.includes('inputScope'),
      mountedUnder: descriptor.mountedUnder
    },
    deps
  );
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
