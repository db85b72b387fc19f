/** A field's problem, by the API's reason, and the banner that lists them (English). */
export const problems = {
  err: {
    required: 'Fill in this field.',
    invalid_type: 'Enter a number.',
    out_of_range: 'This value is out of range.',
    invalid_format: 'This value is not in the right format.',
    not_found: 'This does not exist in this store.',
    duplicate: 'This value appears twice.',
    private_address: 'This address points to a private network; use a public https URL.',
    other: 'This value is not accepted.',
  } as Record<string, string>,
  wholeNumber: 'Enter a whole number.',
  decimals: (n: number) =>
    n === 0 ? 'Enter a whole amount, without decimals.' : `Use at most ${n} decimal${n === 1 ? '' : 's'}.`,
  atLeast: (n: number) => `Enter ${n} or more.`,
  comparePriceAbove: 'The compare-at price must be greater than the price.',
  slugTaken: 'Another product already uses this name in its address. Change the name.',
  phoneInvalid: 'Enter the number in international form, e.g. +14155550100.',
  shortcodesUnknown: (codes: string) =>
    `Unknown placeholders: ${codes}. Use {store}, {customer}, {order}, {items}, {shipping}, {discount}, {total}, ` +
    `{address} or {status_url}.`,
  currencyLocked: (c: string) =>
    `The currency stays ${c} once the store has products, shipping options, discounts or orders.`,
  planLimit: 'Your plan does not allow this.',
  upgradePlan: 'Upgrade your plan',
  problemTitle: 'There is a problem',
}
