/** The message of a call naming an invoice that does not exist. */
export function invoiceNotFound(id: number): string {
  return `Invoice ${id} does not exist. Call billing.list to find invoice ids.`;
}

/** The message of a refund (or adjustment) of an invoice that was already refunded. */
export function alreadyRefunded(id: number, refundedAt: string | undefined): string {
  return `Invoice ${id} was already refunded at ${refundedAt ?? 'an unknown date'}; nothing was changed.`;
}
