/**
 * The panel's pages as functions of what the verbs return. Every piece of stored text (names,
 * e-mails, store names) goes through `html` (escaped). Forms POST and work without the script;
 * each form of a signed-in person carries the session's form token (`_csrf`).
 *
 * One file per area: the frame (layout, navigation, forms, short messages), sign-in, dashboard,
 * account, team and activity.
 */
export * from './frame'
export * from './signin'
export * from './dashboard'
export * from './account'
export * from './team'
export * from './apps'
