import type { ReadResourceResult } from '@modelcontextprotocol/server';
import { injectable } from 'tsyringe';
import type { FusionExtension } from '../extensions/extension';
import type { ChainDependencies } from '../pipeline/chain-builder';
import type { CompiledMember } from '../pipeline/compiled-member';
import { compileMember } from '../pipeline/compile-member';
import { memberInfo } from '../pipeline/member-spec';
import { named, namedAfter } from '../pipeline/steps/named-step';
import type { ExtensionSet } from './extension-set';

/**
 * What an extension's resource chain names as its class: an extension's resources are an object's
 * functions, not a class's methods, so no instance is ever resolved (the terminal calls the
 * extension), but every chain has a class (`ctx.tool.className`, spans, the DI check).
 */
@injectable()
class ExtensionResourceReader {}

/**
 * Compiles the resources each extension serves (`resources` of a {@link FusionExtension}: skill
 * files, say) into one chain per extension, through the one compile path: the queue slot, the
 * scope check (the extension's `resources.scopes`), global middleware (the extensions' `steps`
 * around the app's `middleware`), timeouts, telemetry and the error boundary apply to a
 * `resources/read` of one of them as to any resource. The member is named
 * `<extension id> resources` (`ctx.tool.name`; the read URI is the call's subject), its class
 * `ExtensionResourceReader`, its method the extension id.
 */
export function compileExtensionResources(
  extensions: readonly FusionExtension[],
  set: ExtensionSet,
  deps: ChainDependencies
): ReadonlyMap<string, CompiledMember> {
  const out = new Map<string, CompiledMember>();
  for (const extension of extensions) {
    if (!extension.resources) continue;
    const scopes = [...(extension.resources.scopes ?? [])];
    out.set(
      extension.id,
      compileMember(
        {
          kind: 'resource',
          info: memberInfo(`${extension.id} resources`, 'resource', false, 'ExtensionResourceReader', extension.id, scopes),
          label: `Resources of extension ${extension.id}`,
          target: ExtensionResourceReader,
          singleUseState: false,
          middleware: [],
          present: namedAfter('present', (state, next) => next(state)),
          terminal: named('read-extension-resource', (state): Promise<ReadResourceResult> =>
            set.readOwnResource(extension, state.subject, { ...state.request, signal: state.ctx.signal })
          )
        },
        deps
      )
    );
  }
  return out;
}
