/** The Settings page and its WhatsApp message preview (English). */
export const settings = {
  storeName: 'Store name',
  timezone: 'Time zone',
  whatsappNumber: 'WhatsApp number',
  whatsappTemplate: 'WhatsApp message template',
  templateHint:
    'Placeholders: {store}, {customer}, {order}, {items}, {shipping}, {discount}, {total}, {address}, ' +
    '{status_url} (the Spanish and Portuguese names work too). Leave empty for the default.',
  preview: 'Preview',
  previewTitle: 'Message preview (sample order)',
  sampleCustomer: 'Ana Silva',
  sampleLine1: 'Coffee beans 1 kg',
  sampleLine2: 'Mug',
  sampleShipping: 'Courier',
  sampleAddress: '12 Garden Street, Springfield',
  storeLanguage: 'Store language',
  currency: 'Currency',
  currencyHint: 'ISO 4217 code, e.g. USD.',
  published: 'Published',
  maintenance: 'Maintenance mode',
  pendingTtl: 'Cancel pending orders after (hours)',
  pendingTtlHint: '0 = never.',
  timezoneHint:
    'Where the store is, e.g. America/Bogota: the panel, the customer’s order page and the daily figures use its ' +
    'clock.',
  timezoneInvalid: 'Enter a time zone name such as America/Bogota or Europe/Lisbon.',
  showStockCount: 'Show stock counts in the shop',
  viewShop: 'View the storefront',
}
