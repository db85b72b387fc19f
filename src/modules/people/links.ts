/**
 * One-time links: an invitation to a store (72 h, used once), a password reset (`user:reset` or an
 * owner's Team page), the demo's sign-in link. A link's token (256 random bits) is shown once; only
 * its hash is kept. Using one is accept-link.ts.
 */
import { and, eq, isNull } from 'drizzle-orm'
import {
  invitations,
  passkeys,
  recoveryCodes,
  sessions,
  stores,
  users,
  type Invitation,
  type LinkKind,
  type Role,
  type User,
} from '../../db/schema'
import type { Runner } from '../../db/client'
import { transaction } from '../../kernel/write'
import { NotFound, ValidationError } from '../../lib/errors'
import { iso } from '../../lib/time'
import type { PeopleCtx } from './context'
import { userByEmail, userById } from './lookups'
import { hashToken, randomToken, TOKEN_RE } from './tokens'

export const LINK_TTL_MS = 72 * 3_600_000

export interface NewLink {
  kind: LinkKind
  storeId?: string | null
  userId?: string | null
  email: string
  name?: string | null
  role?: Role | null
  createdBy: string
}

export function insertLinkTx(tx: Runner, now: number, l: NewLink): { id: string; token: string; expiresAt: number } {
  const token = randomToken()
  const expiresAt = now + LINK_TTL_MS
  const row = tx
    .insert(invitations)
    .values({
      kind: l.kind,
      storeId: l.storeId ?? null,
      userId: l.userId ?? null,
      email: l.email,
      name: l.name ?? null,
      role: l.role ?? null,
      tokenHash: hashToken(token),
      expiresAt,
      createdBy: l.createdBy,
      createdAt: now,
    })
    .returning({ id: invitations.id })
    .get()
  return { id: row.id, token, expiresAt }
}

export interface IssuedLink {
  id: string
  email: string
  role?: Role
  token: string
  expiresAt: string
}

/**
 * A reset, inside the caller's transaction: every session of the person ends, the password stops
 * signing in at once (it is cleared) and passkeys stop too until the link is used, so whoever knew
 * the old password is out now; `clearTwoStep` also removes their TOTP, recovery codes and passkeys
 * (a lost phone). Any earlier unused reset link dies.
 */
export function resetInTx(
  tx: Runner,
  now: number,
  user: User,
  opts: { clearTwoStep?: boolean; createdBy: string },
): IssuedLink & { userId: string } {
  tx.delete(sessions).where(eq(sessions.userId, user.id)).run()
  tx.delete(invitations)
    .where(and(eq(invitations.userId, user.id), eq(invitations.kind, 'reset'), isNull(invitations.usedAt)))
    .run()
  tx.update(users)
    .set({
      passwordHash: null,
      resetPendingAt: now,
      updatedAt: now,
      ...(opts.clearTwoStep
        ? { totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null }
        : {}),
    })
    .where(eq(users.id, user.id))
    .run()
  if (opts.clearTwoStep) {
    tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).run()
    tx.delete(passkeys).where(eq(passkeys.userId, user.id)).run()
  }
  const link = insertLinkTx(tx, now, { kind: 'reset', userId: user.id, email: user.email, createdBy: opts.createdBy })
  return { id: link.id, userId: user.id, email: user.email, token: link.token, expiresAt: iso(link.expiresAt) }
}

/** `user:reset`: a one-time link to set a new password (see resetInTx for what stops at once). */
export function issueReset({
  ctx,
  input,
}: {
  ctx: PeopleCtx
  input: { email: string; clearTwoStep?: boolean; createdBy: string }
}): IssuedLink & { userId: string } {
  const now = ctx.clock.now()
  return transaction(ctx.db, (tx) => {
    const user = userByEmail(tx, input.email)
    if (!user) throw new NotFound('User')
    return resetInTx(tx, now, user, input)
  })
}

/** The demo's one-time sign-in link for a person (no password asked). */
export function issueSignInLink({
  ctx,
  input,
}: {
  ctx: PeopleCtx
  input: { userId: string; createdBy: string }
}): IssuedLink {
  const now = ctx.clock.now()
  return transaction(ctx.db, (tx) => {
    const user = userById(tx, input.userId)
    if (!user) throw new NotFound('User')
    tx.delete(invitations)
      .where(and(eq(invitations.userId, user.id), eq(invitations.kind, 'signin'), isNull(invitations.usedAt)))
      .run()
    const link = insertLinkTx(tx, now, {
      kind: 'signin',
      userId: user.id,
      email: user.email,
      createdBy: input.createdBy,
    })
    return { id: link.id, email: user.email, token: link.token, expiresAt: iso(link.expiresAt) }
  })
}

export type LinkProblem = 'unknown' | 'used' | 'expired'

export interface LinkState {
  link: Invitation
  /** The person the link is for, when they have an account already. */
  user: User | undefined
  storeName: string | null
}

/** What a link's token opens, or why it opens nothing. Reads only (a GET shows it). */
export function readLink({ ctx, input }: { ctx: PeopleCtx; input: { token: unknown } }): LinkState | LinkProblem {
  if (typeof input.token !== 'string' || !TOKEN_RE.test(input.token)) return 'unknown'
  const link = ctx.db
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, hashToken(input.token)))
    .get()
  if (!link) return 'unknown'
  if (link.usedAt !== null) return 'used'
  if (link.expiresAt <= ctx.clock.now()) return 'expired'
  const user = link.userId ? userById(ctx.db, link.userId) : userByEmail(ctx.db, link.email)
  if (link.kind !== 'invite' && !user) return 'unknown'
  const storeName = link.storeId
    ? (ctx.db.select({ name: stores.name }).from(stores).where(eq(stores.id, link.storeId)).get()?.name ?? null)
    : null
  if (link.kind === 'invite' && storeName === null) return 'unknown'
  return { link, user, storeName }
}

export class LinkRefused extends ValidationError {
  constructor(readonly problem: LinkProblem) {
    super(
      'token',
      problem === 'expired' ? 'expired' : problem === 'used' ? 'exhausted' : 'not_found',
      `This link ${problem === 'expired' ? 'has expired' : problem === 'used' ? 'was already used' : 'is not valid'}`,
    )
  }
}
