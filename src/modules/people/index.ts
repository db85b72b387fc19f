/**
 * What other parts may import of the people module: users,
 * memberships, links, sessions, sign-in, two-step, passkeys, activity.
 */
export * from './roles'
export * from './rows'
export * from './context'
export * from './tokens'
export * from './passwords'
export * from './sessions'
export * from './team'
export * from './links'
export * from './accept-link'
export * from './accounts'
export * from './throttle'
export * from './signin'
export * from './totp'
export * from './passkeys'
export * from './passkey-signin'
export * from './session-grants'
export * from './activity'
export * from './first-run'
export * from './rehash'
export * from './reads'
