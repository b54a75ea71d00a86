import type { FusionExtension, Gateway, Mount } from '@mcpfusion/core';
import { namespacedViewUri } from '@mcpfusion/core/advanced';
import { DeskActivity } from './desk-activity';
import { deskListenResponse } from './desk-listen';

/** The id of the front desk's directory extension (advertised under `capabilities.extensions`). */
export const DESKS_EXTENSION = 'com.example.billing/desks';

/** The notification a desks listen streams: `{ desks }`, as `desks/list` answers. */
export const DESKS_NOTIFICATION = 'notifications/com.example.billing/desks';

/** One desk behind the front desk, as `desks/list` describes it. */
export interface DeskEntry {
  /** Its namespace: its tools are `<namespace>.<tool>`, its resources `<namespace>+<uri>`. */
  readonly namespace: string;
  /** `mounted`: served by this process; `proxied`: another server, behind the gateway. */
  readonly kind: 'mounted' | 'proxied';
  /** A mounted desk's views (MCP Apps) as this server serves them: `ui://<namespace>/<rest>`. */
  readonly views?: readonly string[];
  /** Its calls in flight now (tools, prompts and resource reads, from the start of their chain to its end). */
  readonly inFlight: number;
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
 * busy each is, how many proxied calls wait on a user), not for the model, and the protocol has
 * no method for it. It uses four parts of the extension API:
 *
 * - `settings`: the namespaces, advertised in `initialize` and `server/discover`;
 * - `methods`: `desks/list`, the directory now;
 * - `steps`: an outer step around every member's chain counts each desk's calls in flight;
 * - `listens`: a 2026-07-28 `subscriptions/listen` with `notifications: { "com.example.billing/desks": true }`
 *   is answered with a stream of the directory, sent at once and again whenever a count changes,
 *   so a dashboard follows the desks without polling (any other listen goes to the core router).
 *
 * The view URIs are computed with `namespacedViewUri` from each mount's `views`, the same rule
 * the framework serves them by (`ui://billing/invoice-desk` mounted under `desk` is
 * `ui://desk/billing/invoice-desk`).
 *
 * @example
 * ```ts
 * const desks = mount('desk', createBillingApp());
 * const app = FusionApp.create({ tools: [], mounts: [desks], extensions: [deskDirectory({ mounts: [desks], gateways: [] })] });
 * // desks/list → { desks: [{ namespace: 'desk', kind: 'mounted', inFlight: 0, views: ['ui://desk/billing/invoice-desk', …] }] }
 * ```
 */
export function deskDirectory(parts: DeskDirectoryParts): FusionExtension {
  const proxied = parts.gateways.filter((g): g is Gateway & { namespace: string } => g.namespace !== undefined);
  const activity = new DeskActivity([...parts.mounts.map((m) => m.namespace), ...proxied.map((g) => g.namespace)]);
  // Built when asked: the counts and a gateway's waiting questions change from call to call.
  const snapshot = (): DeskEntry[] => [
    ...parts.mounts.map((m): DeskEntry => ({
      namespace: m.namespace,
      kind: 'mounted',
      inFlight: activity.count(m.namespace),
      views: (m.views ?? []).map((v) => namespacedViewUri(m.namespace, v.uri))
    })),
    ...proxied.map((g): DeskEntry => ({
      namespace: g.namespace,
      kind: 'proxied',
      inFlight: activity.count(g.namespace),
      waitingQuestions: g.waitingQuestions
    }))
  ];
  return {
    id: DESKS_EXTENSION,
    settings: { namespaces: [...parts.mounts.map((m) => m.namespace), ...proxied.map((g) => g.namespace)] },
    methods: { 'desks/list': () => ({ desks: snapshot() }) },
    steps: { outer: [activity.step] },
    listens: {
      // The listen's params are untrusted: only an explicit `true` under the extension's id is ours.
      accepts: (params) => (params.notifications as Record<string, unknown> | undefined)?.[DESKS_EXTENSION] === true,
      open: (request) =>
        Promise.resolve(
          deskListenResponse(request, DESKS_NOTIFICATION, DESKS_EXTENSION, { snapshot, onChange: (l) => activity.onChange(l) })
        )
    }
  };
}
