/** A person's own account: made as a store's owner (first run, the demo, tests), listed, renamed, its password set. */
import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm'
import { memberships, sessions, users, type User } from '../../db/schema'
import { transaction } from '../../kernel/write'
import { ValidationError } from '../../lib/errors'
import { iso, isoOrNull } from '../../lib/time'
import type { PeopleCtx } from './context'
import { checkEmail, checkName, membershipOf, userByEmail } from './lookups'

/** Creates a person and makes them owner of a store (first run, the demo, tests): no link. */
export function createOwner({
  ctx,
  input,
}: {
  ctx: PeopleCtx
  input: { storeId: string; email: string; name: string; passwordHash: string | null }
}): User {
  const { email, emailKey } = checkEmail(input.email)
  const now = ctx.clock.now()
  return transaction(ctx.db, (tx) => {
    let user = userByEmail(tx, emailKey)
    if (!user)
      user = tx
        .insert(users)
        .values({ email, emailKey, name: input.name, passwordHash: input.passwordHash, createdAt: now, updatedAt: now })
        .returning()
        .get()
    if (!membershipOf(tx, user.id, input.storeId))
      tx.insert(memberships)
        .values({ storeId: input.storeId, userId: user.id, role: 'owner', createdAt: now, updatedAt: now })
        .run()
    return user
  })
}

/** `user:list`: the store's people. */
export function listMembers({ ctx, input }: { ctx: PeopleCtx; input: { storeId: string } }) {
  return ctx.db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: memberships.role,
      createdAt: users.createdAt,
      lastSignInAt: users.lastSignInAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.storeId, input.storeId))
    .orderBy(asc(memberships.createdAt))
    .all()
    .map((u) => ({ ...u, createdAt: iso(u.createdAt), lastSignInAt: isoOrNull(u.lastSignInAt) }))
}

/** One's own account as it is now (the Account page reads it after a change). */
export function accountOf({ ctx, input }: { ctx: PeopleCtx; input: { userId: string } }): User | undefined {
  return ctx.db.select().from(users).where(eq(users.id, input.userId)).get()
}

/** The names and e-mail addresses of these people (the Activity page names the people in its log). */
export function peopleNamed({ ctx, input }: { ctx: PeopleCtx; input: { userIds: string[] } }) {
  if (input.userIds.length === 0) return []
  return ctx.db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(inArray(users.id, input.userIds))
    .all()
}

/** Name and language of one's own account. */
export function updateProfile({
  ctx,
  input,
}: {
  ctx: PeopleCtx
  input: { userId: string; name?: unknown; language?: unknown }
}): User {
  const set: Partial<User> = { updatedAt: ctx.clock.now() }
  if (input.name !== undefined) set.name = checkName(input.name)
  if (input.language !== undefined) {
    if (input.language !== '' && input.language !== 'es' && input.language !== 'en' && input.language !== 'pt')
      throw new ValidationError('language', 'invalid_format')
    set.language = (input.language || null) as User['language']
  }
  return ctx.db.update(users).set(set).where(eq(users.id, input.userId)).returning().get()!
}

/** Sets a new password (hash from the caller) and ends every other session of the person. */
export function setPassword({
  ctx,
  input,
}: {
  ctx: PeopleCtx
  input: { userId: string; passwordHash: string; keepSession: string }
}): void {
  const now = ctx.clock.now()
  transaction(ctx.db, (tx) => {
    tx.update(users).set({ passwordHash: input.passwordHash, updatedAt: now }).where(eq(users.id, input.userId)).run()
    tx.delete(sessions)
      .where(and(eq(sessions.userId, input.userId), ne(sessions.id, input.keepSession)))
      .run()
  })
}

/**
 * A first password for a person who has none (hash from the caller); ends every other session.
 * Guarded on "still none": false when a password was set meanwhile (nothing changed).
 */
export function setFirstPassword({
  ctx,
  input,
}: {
  ctx: PeopleCtx
  input: { userId: string; passwordHash: string; keepSession: string }
}): boolean {
  const now = ctx.clock.now()
  return transaction(ctx.db, (tx) => {
    const set = tx
      .update(users)
      .set({ passwordHash: input.passwordHash, updatedAt: now })
      .where(and(eq(users.id, input.userId), isNull(users.passwordHash)))
      .returning({ id: users.id })
      .all()
    if (set.length === 0) return false
    tx.delete(sessions)
      .where(and(eq(sessions.userId, input.userId), ne(sessions.id, input.keepSession)))
      .run()
    return true
  })
}
