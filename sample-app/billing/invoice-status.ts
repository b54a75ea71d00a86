/** The life cycle of an invoice: issued `open`, then `paid`, possibly `refunded` (once). */
export enum InvoiceStatus {
  Open = 'open',
  Paid = 'paid',
  Refunded = 'refunded'
}
