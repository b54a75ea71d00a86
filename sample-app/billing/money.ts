/**
 * Money for people, always in the invoice's own currency (amounts are stored in cents of it; the
 * seeded invoices are in EUR): the sample never says dollars of an amount that is in euros.
 */

/** Cents in the given currency, for people: `(130000, 'EUR')` → `€1,300.00`, `(25000, 'USD')` → `$250.00`. */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
}

/** Cents as a plain amount of the currency (a form field's bound): `167500` → `1675`. */
export function centsToAmount(cents: number): number {
  return cents / 100;
}

/** An answered amount of the currency in whole cents, rounded to the nearest cent: `12.34` → `1234`. */
export function amountToCents(amount: number): number {
  return Math.round(amount * 100);
}
