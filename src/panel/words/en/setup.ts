/** The first run's page: the first store and its owner (English). */
export const setup = {
  setupTitle: 'Set up your store',
  setupIntro: 'Create the first store and its owner account.',
  createStore: 'Create store',
  storeZoneHint: 'Where the store is, e.g. America/Bogota. Orders show its time; change it later in Settings.',
  storeZoneInvalid: 'Enter a time zone name such as America/Bogota, or leave it empty for UTC.',
}
