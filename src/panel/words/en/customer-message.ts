/**
 * What "Message on WhatsApp" writes to the customer for an order's status, with a shipped order's
 * tracking link (English). Said in the store's language, not the person's: the customer reads it.
 */
export const customerMessage = {
  pending: (n: string, o: string, t: string) =>
    `Hi ${n}, we received your order ${o} (${t}). We will confirm it shortly.`,
  confirmed: (n: string, o: string, t: string) =>
    `Hi ${n}, your order ${o} (${t}) is confirmed. We are preparing it and will tell you when it ships.`,
  shipped: (n: string, o: string) => `Hi ${n}, your order ${o} is on its way.`,
  delivered: (n: string, o: string) => `Hi ${n}, your order ${o} was delivered. Thank you for your purchase!`,
  cancelled: (n: string, o: string) => `Hi ${n}, your order ${o} was cancelled. Write to us if you have any questions.`,
  followTracking: 'Follow it here',
}
