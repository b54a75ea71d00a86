/**
 * The OAuth scopes of the billing desk (checked when it runs with auth, see `auth-config.ts`):
 * reading, changing money, connecting accounts and reading reports are separate grants.
 */
export const Scopes = {
  /** Read invoices, the invoice resource and the collections prompt. */
  BillingRead: 'billing:read',
  /** Refund, adjust, rebuild the aggregates: anything that changes the books. */
  BillingWrite: 'billing:write',
  /** Connect the desk to a provider account. */
  AccountsConnect: 'accounts:connect',
  /** Generate quarter reports. */
  ReportsRead: 'reports:read'
} as const;
