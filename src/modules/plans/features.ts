/** The operations that need a paid plan (declared on their routes), and what the 403 says. */
export const PAID_FEATURES = {
  advancedAnalytics: 'Statistics need a Pro or Lifetime plan',
  reviewModeration: 'Review moderation needs a Pro or Lifetime plan',
} as const

export type PaidFeature = keyof typeof PAID_FEATURES
