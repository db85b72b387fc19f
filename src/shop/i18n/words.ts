/** The shape of the storefront's words in one language. */
export interface Words {
  locale: string
  skip: string
  cart: string
  cartTitle: string
  categories: string
  other: string
  allProducts: string
  noProducts: string
  from: string
  regularPrice: string
  soldOut: string
  addToCart: string
  chooseOption: string
  quantity: string
  reviews: (n: number) => string
  rating: (avg: string) => string
  noReviews: string
  contactWhatsapp: string
  backToCatalog: string
  needsJs: string
  notFoundTitle: string
  notFoundText: string
  unavailableTitle: string
  unavailableText: string
  busyTitle: string
  busyText: string
  storesTitle: string
  storesIntro: string
  noStores: string
  checkout: string
  shipping: string
  days: (n: number) => string
  name: string
  phone: string
  phoneHint: string
  address: string
  notes: string
  discountCode: string
  placeOrder: string
  subtotal: string
  total: string
  totalNote: string
  client: Record<string, string>
  /** A single review's rating as text: "4 out of 5". */
  outOf: (n: number) => string
  reviewsTitle: string
  moreReviews: string
  newerReviews: string
  reviewPages: string
  writeReview: string
  yourName: string
  ratingLabel: string
  stars: (n: number) => string
  reviewLabel: string
  /** Under the review field; `{max}` is the limit. The script replaces it with the live count. */
  reviewHint: string
  sendReview: string
  shareWhatsapp: string
  forbiddenTitle: string
  forbiddenText: string
  /** The review form's messages, for the page (no script) and the script alike. */
  review: ReviewWords
}

export interface ReviewWords {
  thanks: string
  sending: string
  /** The live count as the person types: `{n}` typed of `{max}`. */
  count: string
  nameRequired: string
  /** `{max}` characters at most. */
  nameTooLong: string
  ratingRequired: string
  reviewTooLong: string
  productGone: string
  invalid: string
  /** When another review may be written: about `{n}` hours, about an hour, about `{n}` minutes, about a minute. */
  limitHours: string
  limitHour: string
  limitMinutes: string
  limitMinute: string
  failed: string
  network: string
}
