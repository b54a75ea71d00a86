import { FusionApp, mount, proxy, type AuthOptions, type Gateway, type UpstreamTarget } from '@mcpfusion/core';
import { createBillingApp } from './app';
import { deskDirectory } from './front/desk-directory.extension';
import { Scopes } from './scopes';

/** The namespace of the billing desk mounted in the front desk: `desk.billing.refund`, `desk+billing://invoices/{id}`, `ui://desk/…`. */
export const DESK_NAMESPACE = 'desk';

/** The namespace of the branch desk behind the front desk's gateway: `branch.billing.refund`, `branch+billing://invoices/{id}`. */
export const BRANCH_NAMESPACE = 'branch';

/**
 * The default of {@link FrontDeskOptions.maxBranchSessions}: upstream sessions the gateway holds
 * at once at an HTTP branch (each 2025-era front session gets one of its own).
 */
export const DEFAULT_MAX_BRANCH_SESSIONS = 8;

/** Options of {@link createFrontDesk}. */
export interface FrontDeskOptions {
  /** The SQLite file of the desk mounted in this process (`createBillingApp`'s `dbPath`). */
  dbPath?: string;
  /**
   * The branch: another MCP server put behind the front desk by the gateway, under `branch`. An
   * http(s) URL (`http://127.0.0.1:3000/mcp`, either era) or a command spawned over stdio
   * (`{ command: 'node', args: ['build/sample-app/main.js', '--stdio'] }`).
   */
  branch: UpstreamTarget;
  /**
   * Upstream sessions the gateway holds at once at an HTTP branch (`ProxyOptions.maxUpstreamSessions`).
   * Each 2025-era front session gets an upstream session of its own there (its questions and
   * subscriptions are not another client's), and they all come from one caller, the gateway: a
   * server made with this framework lets one caller hold 20 by default (and an open one, with no
   * auth, sees every client as the same caller). 8, with the gateway's own shared session, leaves
   * the rest to the branch's other clients (the desk's own users, a second front desk); past it,
   * the least recently used idle one is ended, and when all are busy a new front session shares
   * the gateway's one connection. A stdio branch is one child process, shared by every front
   * client, so this does not apply to it. Default 8 (the framework's default is 16).
   */
  maxBranchSessions?: number;
  /** Signs the state of questions in flight (at least 32 bytes; see `createBillingApp`). Default: `$FUSION_STATE_KEY`, else a random key per process. */
  stateKey?: string;
  /**
   * Serve HTTP as an OAuth protected resource, as the desk does (`auth-config.ts`). The mounted
   * tools keep their scopes; the branch's tools get those of the desk's tool of the same name.
   */
  auth?: AuthOptions;
}

/**
 * The front desk: one server in front of two billing desks, composed as a user of the framework
 * composes: the desk of this process **mounted** under `desk` (its tools, resources, prompts and
 * views, on its own SQLite file), and a branch's desk **proxied** under `branch` (any MCP server,
 * over HTTP or stdio; its questions, progress and cancellation translated between the eras). It
 * adds the `com.example.billing/desks` extension, which says what is behind it (see
 * `front/desk-directory.extension.ts`). Connects to the branch before it returns (a branch that
 * cannot be reached is thrown, naming it); `app.close()` closes the gateway (a spawned branch is
 * stopped), then the mounted desk and its database.
 *
 * @example
 * ```ts
 * const front = await createFrontDesk({ dbPath: '/tmp/front.db', branch: 'http://127.0.0.1:3000/mcp' });
 * await front.callTool('desk.billing.invoice', { id: 1 }); // the mounted desk
 * await front.callTool('branch.billing.invoice', { id: 1 }); // the branch, through the gateway
 * await front.close();
 * ```
 */
export async function createFrontDesk(options: FrontDeskOptions): Promise<FusionApp> {
  const desk = createBillingApp({ dbPath: options.dbPath, stateKey: options.stateKey });
  let branch: Gateway | undefined;
  try {
    // With auth, a branch tool needs what the desk's tool of the same name needs (branch.billing.refund: billing:write),
    // and one the desk does not have the strongest grant: nothing behind the front is open to any token. (The branch's
    // resources and prompts take no per-member scopes from a function: they need a valid token only.)
    const deskScopes = new Map(desk.tools.map((tool) => [tool.name, tool.scopes]));
    branch = await proxy(options.branch, {
      namespace: BRANCH_NAMESPACE,
      maxUpstreamSessions: options.maxBranchSessions ?? DEFAULT_MAX_BRANCH_SESSIONS,
      scopes: (tool) => deskScopes.get(tool.name) ?? [Scopes.BillingWrite]
    });
    const mounted = mount(DESK_NAMESPACE, desk);
    return FusionApp.create({
      name: 'front-desk',
      version: '1.0.0',
      instructions:
        'Front desk of two billing desks. desk.* is this office (desk.billing.list, desk.billing.refund, desk.report.generate; ' +
        'invoices at desk+billing://invoices/{id}); branch.* is the branch office, same tools (branch.billing.refund, …). ' +
        'Amounts are integers in cents; refunds are final and ask the user to confirm.',
      tools: [],
      // The desk's tools, resources, prompts and views under `desk`, served through this app's chain, lock and queue.
      // Not carried over from the desk: its extensions (its refund skill names the desk's own tool names), tasks and auth.
      mounts: [mounted],
      gateways: [branch],
      extensions: [deskDirectory({ mounts: [mounted], gateways: [branch] })],
      stateKey: options.stateKey,
      auth: options.auth,
      // As the desk: in production an unexpected failure reaches clients as a reference into the log (ToolErrors are sent).
      maskErrors: process.env.NODE_ENV === 'production',
      // A refund or rebuild of the mounted desk asked for as a task: its record lives here, in memory (a restart forgets it).
      tasks: { ttlMs: 24 * 3_600_000 },
      // The mounted desk is an app of its own: closing the front closes it (and its database) after the gateway.
      onClose: () => desk.close()
    });
  } catch (error) {
    // A branch that cannot be reached, or a clash at startup: nothing is left open.
    await Promise.allSettled([branch?.close(), desk.close()]);
    throw error;
  }
}
