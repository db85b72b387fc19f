/** People's e-mail and name checks, and the look-ups of a person and their memberships. */
import { and, asc, eq, sql } from 'drizzle-orm'
import { memberships, stores, users, type Membership, type User } from '../../db/schema'
import type { Db, Runner } from '../../db/client'
import { ValidationError } from '../../lib/errors'

const EMAIL_MAX = 254
const NAME_MAX = 100

/** `a@b`, no spaces, ≤ 254 characters; lower-cased for uniqueness (contract: case-insensitive). */
export function checkEmail(raw: unknown): { email: string; emailKey: string } {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationError('email', 'required')
  const email = raw.trim()
  if (email.length > EMAIL_MAX) throw new ValidationError('email', 'too_long')
  if (!/^[^\s@]+@[^\s@]+$/.test(email))
    throw new ValidationError('email', 'invalid_format', 'Enter an e-mail address such as name@example.com')
  return { email, emailKey: email.toLowerCase() }
}

export function checkName(raw: unknown, required = true): string {
  const name = typeof raw === 'string' ? raw.trim() : ''
  if (!name && required) throw new ValidationError('name', 'required')
  if ([...name].length > NAME_MAX) throw new ValidationError('name', 'too_long')
  return name
}

export const userByEmail = (db: Runner, email: string): User | undefined =>
  db.select().from(users).where(eq(users.emailKey, email.trim().toLowerCase())).get()
export const userById = (db: Runner, id: string): User | undefined =>
  db.select().from(users).where(eq(users.id, id)).get()

// Every signed-in panel request reads the person's stores: prepared once per connection, since
// building the Drizzle query each time was a large share of a panel page's CPU (bench panel-pages).
const storesStatements = new WeakMap<Db, ReturnType<typeof prepareStoresOf>>()
const prepareStoresOf = (db: Db) =>
  db
    .select({
      membershipId: memberships.id,
      storeId: stores.id,
      name: stores.name,
      slug: stores.slug,
      role: memberships.role,
      status: stores.status,
    })
    .from(memberships)
    .innerJoin(stores, eq(stores.id, memberships.storeId))
    .where(eq(memberships.userId, sql.placeholder('userId')))
    .orderBy(asc(memberships.createdAt))
    .prepare()

/** The person's stores, oldest membership first (the default store at sign-in). */
export function storesOf(db: Db, userId: string) {
  let stmt = storesStatements.get(db)
  if (!stmt) storesStatements.set(db, (stmt = prepareStoresOf(db)))
  return stmt.all({ userId })
}

export const membershipOf = (db: Runner, userId: string, storeId: string): Membership | undefined =>
  db
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.storeId, storeId)))
    .get()

export function membershipByEmail(db: Runner, storeId: string, email: string): Membership | undefined {
  const user = userByEmail(db, email)
  return user ? membershipOf(db, user.id, storeId) : undefined
}
