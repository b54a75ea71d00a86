import type { Middleware } from '../types/middleware';
import type { CompleterRef } from './types';
import type { Icon, MemberMeta } from '../types/display';
import type { Constructor, OutputSpec, ParamKind } from '../types/core';

/** What the descriptors of resources, templates and prompts share. */
export interface SurfaceMember {
  /** The class whose method serves it (resolved from the app's container, or the mount's). */
  readonly target: Constructor;
  /** The class's name, for messages and spans. */
  readonly className: string;
  /** The method that serves it. */
  readonly methodName: string;
  /** What each of the method's parameters receives (`@Input()`, `@Ctx()`, `@Signal()`), in order. */
  readonly params: readonly ParamKind[];
  /** The class its arguments are validated into (absent: it takes none, or a proxied member's are checked by JSON Schema). */
  readonly inputType?: Constructor;
  /** Whether it may ask the client mid-request (`@Interactive`). */
  readonly interactive: boolean;
  /** Interactive: each issued `requestState` is accepted once. */
  readonly singleUseState: boolean;
  /** The class's middleware (`@ToolProvider({ middleware })`), then the member's own (`options.middleware`). */
  readonly middleware: readonly Middleware[];
  /** Ends the request with a timeout error after this many milliseconds; absent: no timeout. */
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
  /** Always `'resource-template'`. */
  readonly kind: 'resource-template';
  /** The RFC 6570 template, as listed (`billing://invoices/{id}`). */
  readonly uriTemplate: string;
  /** Its name in `resources/templates/list`. */
  readonly name: string;
  /** A human-readable title. */
  readonly title?: string;
  /** What it serves, for the model. */
  readonly description?: string;
  /** The MIME type of what it reads. */
  readonly mimeType?: string;
  /** The allowlist of the JSON it returns. */
  readonly output?: OutputSpec;
  /** The completer of each template variable, by variable name. */
  readonly complete: Readonly<Record<string, CompleterRef>>;
  /** The method of the class that lists the template's resources in `resources/list`, when it has one. */
  readonly list?: string;
  /**
   * Served but not listed in `resources/templates/list`: a gateway's catch-all route to its
   * upstream (its `list` method still adds the upstream's resources to `resources/list`).
   */
  readonly unlisted?: boolean;
}

/** A prompt. */
export interface PromptDescriptor extends SurfaceMember {
  /** Always `'prompt'`. */
  readonly kind: 'prompt';
  /** Its name, as listed and got (`billing.dunning-letter`). */
  readonly name: string;
  /** A human-readable title. */
  readonly title?: string;
  /** What it is for, for the user choosing it. */
  readonly description: string;
  /** The completer of each argument, by argument name. */
  readonly complete: Readonly<Record<string, CompleterRef>>;
  /**
   * A prompt described by its listed arguments rather than by an input class (a gateway's
   * proxied prompt): listed as given; the arguments are checked as strings, the required ones present.
   */
  readonly listedArguments?: readonly {
    /** The argument's name. */
    readonly name: string;
    /** What it is. */
    readonly description?: string;
    /** Whether the prompt needs it. */
    readonly required?: boolean;
  }[];
}
