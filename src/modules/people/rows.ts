/** The people module's rows, for code outside it (adapters import nothing from db/schema). */
export type { Session, User } from '../../db/schema'
