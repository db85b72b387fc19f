/** The platform-stores module as other code sees it: everything outside the folder imports from here. */
export * from './service'
export type { Store } from '../../db/schema'
export { PLANS } from '../../db/schema'
