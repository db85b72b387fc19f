/**
 * Users, store memberships and one-time links: an
 * invitation to a store (72 h, used once), a password reset from `user:reset`, the demo's
 * sign-in link. A link's token (256 random bits) is shown once; only its hash is kept.
 * A store always keeps at least one owner.
 */
import { and, asc, count, eq, gt, isNull, ne } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import {
  invitations,
  memberships,
  passkeys,
  recoveryCodes,
  sessions,
  stores,
  users,
  type Invitation,
  type LinkKind,
  type Membership,
  type Role,
  type User,
} from '../../db/schema'
import { transaction, write } from '../../kernel/write'
import type { Runner } from '../../db/client'
import { Conflict, NotFound, ValidationError } from '../../lib/errors'
import { iso, isoOrNull } from '../../lib/time'
import { actorRef, recordActivity } from './activity'
import type { PeopleCtx } from './context'
import { isRole } from './roles'
import { hashToken, randomToken, TOKEN_RE } from './tokens'
import { checkEmail, checkName, membershipOf, userByEmail, userById } from './lookups'

export { checkEmail, checkName, membershipByEmail, membershipOf, storesOf, userByEmail, userById } from './lookups'

export const LINK_TTL_MS = 72 * 3_600_000
interface NewLink {
  kind: LinkKind
  storeId?: string | null
  userId?: string | null
  email: string
  name?: string | null
  role?: Role | null
  createdBy: string
}

function insertLink(tx: Runner, now: number, l: NewLink): { id: string; token: string; expiresAt: number } {
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

/** Invites a person to the ctx's store with a role; an earlier unused invitation of that e-mail here is replaced. */
export function inviteToStore({
  ctx,
  input,
}: {
  ctx: Ctx
  input: { email: unknown; role?: unknown; name?: unknown }
}): IssuedLink {
  const { email, emailKey } = checkEmail(input.email)
  const role = input.role ?? 'owner'
  if (!isRole(role)) throw new ValidationError('role', 'invalid_format', 'Role must be owner, staff or viewer')
  const name = checkName(input.name, false) || null
  const now = ctx.clock.now()
  return write(ctx, (tx) => {
    const existing = userByEmail(tx, emailKey)
    if (existing && membershipOf(tx, existing.id, ctx.store.id))
      throw new ValidationError('email', 'duplicate', 'This person is already in the team')
    tx.delete(invitations)
      .where(
        and(
          eq(invitations.storeId, ctx.store.id),
          eq(invitations.email, email),
          eq(invitations.kind, 'invite'),
          isNull(invitations.usedAt),
        ),
      )
      .run()
    const link = insertLink(tx, now, {
      kind: 'invite',
      storeId: ctx.store.id,
      email,
      name,
      role,
      createdBy: actorRef(ctx.actor),
    })
    recordActivity(tx, now, {
      storeId: ctx.store.id,
      actor: actorRef(ctx.actor),
      verb: 'invite',
      recordType: 'invitation',
      recordId: link.id,
    })
    return { id: link.id, email, role, token: link.token, expiresAt: iso(link.expiresAt) }
  })
}

export function listTeam({ ctx }: { ctx: Ctx }) {
  const members = ctx.db
    .select({
      id: memberships.id,
      userId: users.id,
      email: users.email,
      name: users.name,
      role: memberships.role,
      createdAt: memberships.createdAt,
      lastSignInAt: users.lastSignInAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.storeId, ctx.store.id))
    .orderBy(asc(memberships.createdAt))
    .all()
    .map((m) => ({ ...m, createdAt: iso(m.createdAt), lastSignInAt: isoOrNull(m.lastSignInAt) }))
  const pending = ctx.db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.storeId, ctx.store.id),
        eq(invitations.kind, 'invite'),
        isNull(invitations.usedAt),
        gt(invitations.expiresAt, ctx.clock.now()),
      ),
    )
    .orderBy(asc(invitations.createdAt))
    .all()
    .map((i) => ({ id: i.id, email: i.email, role: i.role!, expiresAt: iso(i.expiresAt) }))
  return { members, pending }
}

function ownerCount(tx: Runner, storeId: string): number {
  return tx
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.storeId, storeId), eq(memberships.role, 'owner')))
    .get()!.n
}

function memberOfStore(tx: Runner, ctx: Ctx, membershipId: string): Membership {
  const m = tx.select().from(memberships).where(eq(memberships.id, membershipId)).get()
  if (!m) throw new NotFound('Team member')
  if (m.storeId !== ctx.store.id) throw new NotFound('Team member')
  return m
}

export class LastOwner extends Conflict {
  constructor() {
    super('LIMIT_REACHED', 'A store keeps at least one owner', { reason: 'last_owner' })
  }
}

export function changeRole({ ctx, input }: { ctx: Ctx; input: { membershipId: string; role: unknown } }): Membership {
  if (!isRole(input.role)) throw new ValidationError('role', 'invalid_format', 'Role must be owner, staff or viewer')
  const role = input.role
  const now = ctx.clock.now()
  return write(ctx, (tx) => {
    const m = memberOfStore(tx, ctx, input.membershipId)
    if (m.role === 'owner' && role !== 'owner' && ownerCount(tx, ctx.store.id) <= 1) throw new LastOwner()
    const out = tx.update(memberships).set({ role, updatedAt: now }).where(eq(memberships.id, m.id)).returning().get()!
    recordActivity(tx, now, {
      storeId: ctx.store.id,
      actor: actorRef(ctx.actor),
      verb: 'change_role',
      recordType: 'membership',
      recordId: m.id,
    })
    return out
  })
}

/** Removes a person from the store (not the last owner); their unused links for it die with the membership. */
export function removeMember({ ctx, input }: { ctx: Ctx; input: { membershipId: string } }): {
  id: string
  removed: true
} {
  const now = ctx.clock.now()
  return write(ctx, (tx) => {
    const m = memberOfStore(tx, ctx, input.membershipId)
    if (m.role === 'owner' && ownerCount(tx, ctx.store.id) <= 1) throw new LastOwner()
    tx.delete(memberships).where(eq(memberships.id, m.id)).run()
    tx.delete(invitations)
      .where(and(eq(invitations.storeId, ctx.store.id), eq(invitations.userId, m.userId), isNull(invitations.usedAt)))
      .run()
    // Sessions working in this store move to none: the gate finds another store or says there is none.
    tx.update(sessions)
      .set({ storeId: null })
      .where(and(eq(sessions.userId, m.userId), eq(sessions.storeId, ctx.store.id)))
      .run()
    recordActivity(tx, now, {
      storeId: ctx.store.id,
      actor: actorRef(ctx.actor),
      verb: 'remove',
      recordType: 'membership',
      recordId: m.id,
    })
    return { id: m.userId, removed: true as const }
  })
}

/** Withdraws an invitation not yet used: its link stops working at once. */
export function revokeInvitation({ ctx, input }: { ctx: Ctx; input: { invitationId: string } }): void {
  const now = ctx.clock.now()
  write(ctx, (tx) => {
    const gone = tx
      .delete(invitations)
      .where(
        and(
          eq(invitations.id, input.invitationId),
          eq(invitations.storeId, ctx.store.id),
          eq(invitations.kind, 'invite'),
          isNull(invitations.usedAt),
        ),
      )
      .returning({ id: invitations.id })
      .all()
    if (gone.length === 0) throw new NotFound('Invitation')
    recordActivity(tx, now, {
      storeId: ctx.store.id,
      actor: actorRef(ctx.actor),
      verb: 'revoke',
      recordType: 'invitation',
      recordId: input.invitationId,
    })
  })
}

/**
 * `user:reset`: a one-time link to set a new password, and every session of the person ends now.
 * `clearTwoStep` also removes their TOTP, recovery codes and passkeys (a lost phone).
 */
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
    tx.delete(sessions).where(eq(sessions.userId, user.id)).run()
    tx.delete(invitations)
      .where(and(eq(invitations.userId, user.id), eq(invitations.kind, 'reset'), isNull(invitations.usedAt)))
      .run()
    if (input.clearTwoStep) {
      tx.update(users)
        .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, updatedAt: now })
        .where(eq(users.id, user.id))
        .run()
      tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).run()
      tx.delete(passkeys).where(eq(passkeys.userId, user.id)).run()
    }
    const link = insertLink(tx, now, { kind: 'reset', userId: user.id, email: user.email, createdBy: input.createdBy })
    return { id: link.id, userId: user.id, email: user.email, token: link.token, expiresAt: iso(link.expiresAt) }
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
    const link = insertLink(tx, now, { kind: 'signin', userId: user.id, email: user.email, createdBy: input.createdBy })
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

/**
 * Uses a link, once: marks it used (a second use, even a concurrent one, finds it used), then
 * for an invitation makes the account (name + password hash, computed by the caller) and the
 * membership; for a reset sets the new password and ends every session; for a sign-in link
 * does nothing more. Returns the person and the store to open.
 */
export function consumeLink({
  ctx,
  input,
}: {
  ctx: PeopleCtx
  input: { token: string; name?: string; passwordHash?: string }
}): { user: User; storeId: string | null; kind: LinkKind } {
  const now = ctx.clock.now()
  return transaction(ctx.db, (tx) => {
    const state = readLink({ ctx: { ...ctx, db: tx as never }, input: { token: input.token } })
    if (typeof state === 'string') throw new LinkRefused(state)
    const { link } = state
    const used = tx
      .update(invitations)
      .set({ usedAt: now })
      .where(and(eq(invitations.id, link.id), isNull(invitations.usedAt)))
      .returning({ id: invitations.id })
      .all()
    if (used.length === 0) throw new LinkRefused('used')
    let user = state.user
    if (link.kind === 'invite') {
      if (!user) {
        if (!input.passwordHash) throw new ValidationError('password', 'required')
        user = tx
          .insert(users)
          .values({
            email: link.email,
            emailKey: link.email.toLowerCase(),
            name: input.name ?? link.name ?? '',
            passwordHash: input.passwordHash,
            createdAt: now,
            updatedAt: now,
          })
          .returning()
          .get()
      } else if (!user.passwordHash) {
        if (!input.passwordHash) throw new ValidationError('password', 'required')
        user = tx
          .update(users)
          .set({ name: input.name ?? user.name, passwordHash: input.passwordHash, updatedAt: now })
          .where(eq(users.id, user.id))
          .returning()
          .get()!
      }
      if (!membershipOf(tx, user.id, link.storeId!)) {
        const m = tx
          .insert(memberships)
          .values({ storeId: link.storeId!, userId: user.id, role: link.role!, createdAt: now, updatedAt: now })
          .returning({ id: memberships.id })
          .get()
        recordActivity(tx, now, {
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
      if (!input.passwordHash) throw new ValidationError('password', 'required')
      user = tx
        .update(users)
        .set({ passwordHash: input.passwordHash, updatedAt: now })
        .where(eq(users.id, user.id))
        .returning()
        .get()!
      tx.delete(sessions).where(eq(sessions.userId, user.id)).run()
    }
    return { user, storeId: null, kind: link.kind }
  })
}

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
