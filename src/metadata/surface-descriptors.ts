import type { Middleware } from '../types/middleware';
import type { CompleterRef } from './types';
import type { Icon, MemberMeta } from '../types/display';
import type { Constructor, OutputSpec, ParamKind } from '../types/core';

/** What the descriptors of resources, templates and prompts share. */
export interface SurfaceMember {
  readonly target: Constructor;
  readonly className: string;
  readonly methodName: string;
  readonly params: readonly ParamKind[];
  readonly inputType?: Constructor;
  readonly interactive: boolean;
  /** Interactive: each issued `requestState` is accepted once. */
  readonly singleUseState: boolean;
  /** The class's middleware (`@ToolProvider({ middleware })`), then the member's own (`options.middleware`). */
  readonly middleware: readonly Middleware[];
  readonly timeoutMs?: number;
  /** OAuth scopes a caller's token must grant (its own, else the class's; empty: none). */
  readonly scopes: readonly string[];
  /** Icons listed with it (the `icons` option, checked). */
  readonly icons?: readonly Icon[];
  /** Its own `_meta` (the `_meta` option, checked), listed as given. */
  readonly meta?: MemberMeta;
  /**
   * The namespace of the mount it comes from (`compose/mount.ts`), when it is a mounted app's: it is
   * resolved from that mount's container, and what a template's list method returns is listed under it.
   */
  readonly mountedUnder?: string;
}

/** A resource at a fixed URI. */
export interface ResourceDescriptor extends SurfaceMember {
  readonly kind: 'resource';
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** The allowlist of the JSON it returns. */
  readonly output?: OutputSpec;
}

/** A resource template (RFC 6570). */
export interface ResourceTemplateDescriptor extends SurfaceMember {
  readonly kind: 'resource-template';
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** The allowlist of the JSON it returns. */
  readonly output?: OutputSpec;
  readonly complete: Readonly<Record<string, CompleterRef>>;
  readonly list?: string;
  /**
   * Served but not listed in `resources/templates/list`: a gateway's catch-all route to its
   * upstream (its `list` method still adds the upstream's resources to `resources/list`).
   */
  readonly unlisted?: boolean;
}

/** A prompt. */
export interface PromptDescriptor extends SurfaceMember {
  readonly kind: 'prompt';
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly complete: Readonly<Record<string, CompleterRef>>;
  /**
   * A prompt described by its listed arguments rather than by an input class (a gateway's
   * proxied prompt): listed as given; the arguments are checked as strings, the required ones present.
   */
  readonly listedArguments?: readonly { readonly name: string; readonly description?: string; readonly required?: boolean }[];
}
