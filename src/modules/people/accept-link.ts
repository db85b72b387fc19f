/**
 * Using a one-time link (links.ts), once. An invitation never sets or replaces an existing
 * account's credentials: a new e-mail gets a new account (name + password), an existing account
 * joins only when the caller proved it is that account (signed in as it) — docs/panel.md, "Security".
 */
import { and, eq, isNull } from 'drizzle-orm'
import { invitations, memberships, sessions, users, type LinkKind, type User } from '../../db/schema'
import { transaction } from '../../kernel/write'
import { Forbidden, ValidationError } from '../../lib/errors'
import { recordActivityTx } from './activity'
import type { PeopleCtx } from './context'
import { LinkRefused, readLink } from './links'
import { membershipOf } from './lookups'

/** An invitation for an existing account, used by someone not signed in as that account. */
export class SignInAsAccount extends Forbidden {
  constructor() {
    super('Sign in as the invited account to accept this invitation')
  }
}

/**
 * Marks the link used (a second use, even a concurrent one, finds it used), then: an invitation
 * makes the account (when none has the e-mail; `passwordHash` computed by the caller) or, for an
 * existing account, needs `asUserId` to be that account; either way the membership follows. A
 * reset sets the new password, lifts the reset's hold and ends every session. A sign-in link does
 * nothing more. Returns the person and the store to open.
 */
export function consumeLink({
  ctx,
  input,
}: {
  ctx: PeopleCtx
  input: { token: string; name?: string; passwordHash?: string; asUserId?: string }
}): { user: User; storeId: string | null; kind: LinkKind } {
  const now = ctx.clock.now()
  return transaction(ctx.db, (tx) => {
    const state = readLink({ ctx: { ...ctx, db: tx as never }, input: { token: input.token } })
    if (typeof state === 'string') throw new LinkRefused(state)
    const { link } = state
    let user = state.user
    // Checked before the link is spent: a refused holder leaves it for the right person.
    if (link.kind === 'invite' && user && input.asUserId !== user.id) throw new SignInAsAccount()
    if ((link.kind === 'reset' || (link.kind === 'invite' && !user)) && !input.passwordHash)
      throw new ValidationError('password', 'required')
    const used = tx
      .update(invitations)
      .set({ usedAt: now })
      .where(and(eq(invitations.id, link.id), isNull(invitations.usedAt)))
      .returning({ id: invitations.id })
      .all()
    if (used.length === 0) throw new LinkRefused('used')
    if (link.kind === 'invite') {
      user ??= tx
        .insert(users)
        .values({
          email: link.email,
          emailKey: link.email.toLowerCase(),
          name: input.name ?? link.name ?? '',
          passwordHash: input.passwordHash!,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
        .get()
      if (!membershipOf(tx, user.id, link.storeId!)) {
        const m = tx
          .insert(memberships)
          .values({ storeId: link.storeId!, userId: user.id, role: link.role!, createdAt: now, updatedAt: now })
          .returning({ id: memberships.id })
          .get()
        recordActivityTx(tx, now, {
          storeId: link.storeId!,
          actor: `user:${user.id}`,
          verb: 'join',
          recordType: 'membership',
          recordId: m.id,
        })
      }
      tx.update(invitations).set({ userId: user.id }).where(eq(invitations.id, link.id)).run()
      return { user, storeId: link.storeId, kind: link.kind }
    }
    if (!user) throw new LinkRefused('unknown')
    if (link.kind === 'reset') {
      user = tx
        .update(users)
        .set({ passwordHash: input.passwordHash!, resetPendingAt: null, updatedAt: now })
        .where(eq(users.id, user.id))
        .returning()
        .get()!
      tx.delete(sessions).where(eq(sessions.userId, user.id)).run()
    }
    return { user, storeId: null, kind: link.kind }
  })
}
