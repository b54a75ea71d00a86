import { namespacedViewUri, type FusionExtension, type Gateway, type Mount } from '@mcpfusion/core/advanced';

/** The id of the front desk's directory extension (advertised under `capabilities.extensions`). */
export const DESKS_EXTENSION = 'com.example.billing/desks';

/** One desk behind the front desk, as `desks/list` describes it. */
export interface DeskEntry {
  /** Its namespace: its tools are `<namespace>.<tool>`, its resources `<namespace>+<uri>`. */
  readonly namespace: string;
  /** `mounted`: served by this process; `proxied`: another server, behind the gateway. */
  readonly kind: 'mounted' | 'proxied';
  /** A mounted desk's views (MCP Apps) as this server serves them: `ui://<namespace>/<rest>`. */
  readonly views?: readonly string[];
  /** A proxied desk's calls waiting now for a user's answer to the question it asked. */
  readonly waitingQuestions?: number;
}

/** What {@link deskDirectory} describes: the mounts and gateways given to the front desk. */
export interface DeskDirectoryParts {
  readonly mounts: readonly Mount[];
  readonly gateways: readonly Gateway[];
}

/**
 * The front desk's directory of desks, as an extension (SEP-2133), not a tool: what it answers is
 * for the host and the operator (which desks are behind this server, where their views are, how
 * many proxied calls wait on a user), not for the model, and the protocol has no method for it.
 * An extension adds a method of its own, `desks/list`, and advertises the namespaces in its
 * settings, which a client reads from `initialize` or `server/discover` before calling anything.
 *
 * The view URIs are computed with `namespacedViewUri` from each mount's `views`, the same rule
 * the framework serves them by (`ui://billing/invoice-desk` mounted under `desk` is
 * `ui://desk/billing/invoice-desk`).
 *
 * @example
 * ```ts
 * const desks = mount('desk', createBillingApp());
 * const app = FusionApp.create({ tools: [], mounts: [desks], extensions: [deskDirectory({ mounts: [desks], gateways: [] })] });
 * // desks/list → { desks: [{ namespace: 'desk', kind: 'mounted', views: ['ui://desk/billing/invoice-desk', …] }] }
 * ```
 */
export function deskDirectory(parts: DeskDirectoryParts): FusionExtension {
  const mounted = parts.mounts.map((m): DeskEntry => ({
    namespace: m.namespace,
    kind: 'mounted',
    views: (m.views ?? []).map((v) => namespacedViewUri(m.namespace, v.uri))
  }));
  const proxied = parts.gateways.filter((g): g is Gateway & { namespace: string } => g.namespace !== undefined);
  return {
    id: DESKS_EXTENSION,
    settings: { namespaces: [...mounted.map((d) => d.namespace), ...proxied.map((g) => g.namespace)] },
    methods: {
      // Read when asked: a gateway's waiting questions change from call to call.
      'desks/list': () => ({
        desks: [
          ...mounted,
          ...proxied.map((g): DeskEntry => ({ namespace: g.namespace, kind: 'proxied', waitingQuestions: g.waitingQuestions }))
        ]
      })
    }
  };
}
