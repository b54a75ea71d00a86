/**
 * Injection tokens registered in every call's child container.
 *
 * @example
 * ```ts
 * @injectable()
 * class AuditLog {
 *   constructor(@inject(CALL_CONTEXT) private readonly ctx: CallContext, @inject(CALL_SIGNAL) private readonly signal: AbortSignal) {}
 * }
 * ```
 */
export const CALL_CONTEXT = Symbol.for('mcpfusion:call-context');

/** Who is calling (`CallerAuth`, the same object as `ctx.auth`): undefined for a call without a verified token. */
export const CALL_AUTH = Symbol.for('mcpfusion:call-auth');

/** The call's `AbortSignal` (the same object as `ctx.signal`). */
export const CALL_SIGNAL = Symbol.for('mcpfusion:call-signal');

/**
 * The app itself, registered in its own container: a tool can inject it to add or remove tool
 * classes at run time (`addTools`, `removeTools`), or to call `notifyResourceUpdated`.
 */
export const FUSION_APP = Symbol.for('mcpfusion:app');
