/** The public-catalog module as other code sees it: everything outside the folder imports from here. */
export * from './model'
export * from './service'
export * from './visits'
export * from './lookups'
