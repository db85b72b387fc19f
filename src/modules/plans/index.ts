/** The plans module as other code sees it: everything outside the folder imports from here. */
export * from './caps'
export * from './features'
