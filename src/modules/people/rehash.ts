/**
 * Hashes made at a costlier argon2id setting (Bun's default of 64 MiB, before docs/decisions/025) are
 * made again at PASSWORD_HASHING when their owner signs in with the right password: until then
 * each of their verifications holds 64 MiB, and their verification takes longer than an unknown
 * e-mail's (which verifies a dummy hash at the current cost).
 */
import { and, eq } from 'drizzle-orm'
import { users } from '../../db/schema'
import type { PeopleCtx } from './context'
import { hashPassword, PASSWORD_HASHING } from './passwords'

/**
 * Whether a stored PHC string needs no new hash: only one holding more memory than the current
 * cost is made again (the memory is what this bounds; the cheap hashes the tests seed stay).
 */
export function hashIsCurrent(hash: string): boolean {
  const m = /^\$argon2id\$v=\d+\$m=(\d+),/.exec(hash)
  return !m || Number(m[1]) <= PASSWORD_HASHING.memoryCost
}

/**
 * Replaces `old` with a hash of `password` at the current cost; a guarded UPDATE, so a password
 * changed meanwhile (the row no longer holds `old`) is left as it is.
 */
export async function rehashIfOld(ctx: PeopleCtx, userId: string, old: string, password: string, ip: string) {
  if (hashIsCurrent(old)) return
  const next = await hashPassword(password, ip)
  ctx.db
    .update(users)
    .set({ passwordHash: next })
    .where(and(eq(users.id, userId), eq(users.passwordHash, old)))
    .run()
}
