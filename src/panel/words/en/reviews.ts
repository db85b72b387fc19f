/** The Reviews page (English). */
export const reviews = {
  pending: 'Waiting for approval',
  others: 'Approved and rejected',
  none: 'No reviews yet.',
  approve: 'Approve',
  reject: 'Reject',
  confirm: 'Delete this review?',
  confirmText: 'It is removed for good, from the product page too.',
  keep: 'Keep it',
  rating: (n: number) => `${n} out of 5`,
  status: { pending: 'Pending', approved: 'Approved', rejected: 'Rejected' },
  upgrade: 'Approving and rejecting reviews comes with a paid plan.',
  upgradeLink: 'See the plans',
}
