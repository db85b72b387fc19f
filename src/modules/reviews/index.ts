/** The reviews module as other code sees it: everything outside the folder imports from here. */
export * from './events'
export * from './model'
export * from './service'
