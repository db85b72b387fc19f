/**
 * The orders module's raw SQL (db/sql.ts), by idea: the API's reads, the inbox and its marks, the status page, notes.
 */
export * from './reads'
export * from './inbox'
export * from './pages'
