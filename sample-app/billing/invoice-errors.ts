/** The message of a call naming an invoice that does not exist. */
export function invoiceNotFound(id: number): string {
  return `Invoice ${id} does not exist. Call billing.list to find invoice ids.`;
}

/** The message of a refund (or adjustment) of an invoice that was already refunded. */
export function alreadyRefunded(id: number, refundedAt: string | undefined): string {
  return `Invoice ${id} was already refunded at ${refundedAt ?? 'an unknown date'}; nothing was changed.`;
}

/** The message of a refund whose lock grant is older than the invoice's last write (its fencing token was refused). */
export function staleRefund(id: number): string {
  return `Invoice ${id} was written under a later grant of its lock than this refund's (its fencing token was refused): nothing was changed. Retry the refund.`;
}
