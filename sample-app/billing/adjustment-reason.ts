/** Why an invoice is adjusted (the choices `billing.adjust` offers). */
export enum AdjustmentReason {
  Discount = 'discount',
  BillingError = 'billing-error',
  Goodwill = 'goodwill'
}

/** The reasons with the labels a client shows for them. */
export const ADJUSTMENT_REASON_TITLES: Readonly<Record<AdjustmentReason, string>> = {
  [AdjustmentReason.Discount]: 'Discount',
  [AdjustmentReason.BillingError]: 'Billing error',
  [AdjustmentReason.Goodwill]: 'Goodwill gesture'
};
