/** The keys module as other code sees it: everything outside the folder imports from here. */
export * from './service'
