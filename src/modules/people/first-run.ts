/**
 * First run (contract): while the database has no store, `bun run start` prints a one-time setup
 * link. Its token lives only in this process's memory (valid until used or until the service
 * restarts), so it is never written anywhere but that one line on stdout.
 */
import { count } from 'drizzle-orm'
import { stores } from '../../db/schema'
import type { PeopleCtx } from './context'
import { hashToken, randomToken, sameSecret, TOKEN_RE } from './tokens'

export class FirstRun {
  private tokenHash: string | undefined

  /** A new setup token when the database has no store (none otherwise). */
  issue(ctx: PeopleCtx): string | undefined {
    if (hasStores(ctx)) return undefined
    const token = randomToken()
    this.tokenHash = hashToken(token)
    return token
  }

  /** Whether `token` is the live setup token (and the database still has no store). */
  valid(ctx: PeopleCtx, token: unknown): boolean {
    if (!this.tokenHash || typeof token !== 'string' || !TOKEN_RE.test(token)) return false
    if (hasStores(ctx)) return false
    return sameSecret(hashToken(token), this.tokenHash)
  }

  /** Spends it: a second use finds nothing. */
  spend(): void {
    this.tokenHash = undefined
  }
}

const hasStores = (ctx: PeopleCtx) => ctx.db.select({ n: count() }).from(stores).get()!.n > 0
