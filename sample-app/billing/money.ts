const DOLLARS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Cents as a dollar amount for people: `167500` → `$1,675.00`. */
export function formatDollars(cents: number): string {
  return `$${DOLLARS.format(cents / 100)}`;
}

/** Cents as a plain number of dollars (a form field's bound): `167500` → `1675`. */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** A dollar answer in whole cents, rounded to the nearest cent: `12.34` → `1234`. */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/**
 * Cents in the invoice's own currency, for people: `(152500, 'EUR')` → `€1,525.00`. Unlike
 * {@link formatDollars}, the symbol is the currency's (the seeded invoices are in EUR).
 */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
}
