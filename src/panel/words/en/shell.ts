/** The frame around every page: skip link, menus, badges, the store switcher (English). */
export const shell = {
  locale: 'en',
  languageName: 'English',
  skip: 'Skip to content',
  panel: 'Seller panel',
  nav: 'Main',
  pendingReviews: '{n} waiting for approval',
  tabs: 'Shortcuts',
  more: 'More',
  /** Said after the More tab's word to screen readers and link-text checks: "More pages". */
  morePages: 'pages',
  moreIntro: 'Everything else in the panel.',
  unseenOrders: '{n} new',
  chime: 'Order sound',
  signOut: 'Sign out',
  switchStore: 'Switch store',
}
