/** The pages that refuse or fail: not allowed, not found, suspended, busy (English). */
export const errors = {
  forbiddenTitle: 'Not allowed',
  forbiddenText: 'Your role in this store does not allow this page.',
  crossSiteText: 'This form was not sent from this panel, so nothing was changed.',
  noStoreTitle: 'No store',
  noStoreText: 'You are not in any store. Ask an owner to invite you again.',
  suspendedTitle: 'Store suspended',
  suspendedText: (store: string) =>
    `${store} is suspended for an unpaid invoice. Nothing in it can be shown or changed until the payment is recorded.`,
  suspendedReason: (reason: string) => `Reason: ${reason}.`,
  upgrade: 'Settle the payment',
  notFoundTitle: 'Page not found',
  notFoundText: 'There is nothing at this address.',
  backToDashboard: 'Back to the dashboard',
  busyTitle: 'Busy',
  busyText: 'Too many sign-ins at once. Try again in a moment.',
  errorTitle: 'Something went wrong',
}
