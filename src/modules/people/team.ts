/**
 * A store's team: invitations (links.ts makes the link), roles, removal, and an owner's reset link
 * for a member. A store always keeps at least one owner.
 */
import { and, asc, count, eq, gt, isNull } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import { invitations, memberships, sessions, users, type Membership } from '../../db/schema'
import { write } from '../../kernel/write'
import type { Runner } from '../../db/client'
import { Conflict, Forbidden, NotFound, ValidationError } from '../../lib/errors'
import { iso, isoOrNull } from '../../lib/time'
import { actorRef, recordActivityTx } from './activity'
import { insertLinkTx, resetInTx, type IssuedLink } from './links'
import { isRole } from './roles'
import { checkEmail, checkName, membershipOf, userByEmail, userById } from './lookups'

export { checkEmail, checkName } from './lookups'

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
    const link = insertLinkTx(tx, now, {
      kind: 'invite',
      storeId: ctx.store.id,
      email,
      name,
      role,
      createdBy: actorRef(ctx.actor),
    })
    recordActivityTx(tx, now, {
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
    recordActivityTx(tx, now, {
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
    recordActivityTx(tx, now, {
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
    recordActivityTx(tx, now, {
      storeId: ctx.store.id,
      actor: actorRef(ctx.actor),
      verb: 'revoke',
      recordType: 'invitation',
      recordId: input.invitationId,
    })
  })
}

/** A person who is also in a store where the one asking is not an owner: their reset is the operator's. */
export class ResetNotYours extends Forbidden {
  constructor() {
    super('This person also works in a store you do not own', { reason: 'other_store' })
  }
}

/**
 * An owner's reset link for a member of the ctx's store: the same one-time link as `user:reset`,
 * with the same immediate effects (links.ts resetInTx). Whoever holds the link becomes that
 * person, with every membership they have, so an owner may make one only for someone whose every
 * store the owner also owns; not for themselves (the Account page changes one's own password).
 */
export function issueMemberReset({ ctx, input }: { ctx: Ctx; input: { membershipId: string } }): IssuedLink {
  const now = ctx.clock.now()
  if (ctx.actor.kind !== 'user') throw new Forbidden('Only a person makes reset links')
  const ownerId = ctx.actor.userId
  return write(ctx, (tx) => {
    const m = memberOfStore(tx, ctx, input.membershipId)
    if (m.userId === ownerId) throw new ValidationError('membership', 'invalid_format', 'Not for yourself')
    const theirs = tx.select().from(memberships).where(eq(memberships.userId, m.userId)).all()
    for (const other of theirs) {
      if (membershipOf(tx, ownerId, other.storeId)?.role !== 'owner') throw new ResetNotYours()
    }
    const user = userById(tx, m.userId)!
    const issued = resetInTx(tx, now, user, { createdBy: `user:${ownerId}` })
    recordActivityTx(tx, now, {
      storeId: ctx.store.id,
      actor: actorRef(ctx.actor),
      verb: 'reset',
      recordType: 'membership',
      recordId: m.id,
    })
    return { id: issued.id, email: issued.email, token: issued.token, expiresAt: issued.expiresAt }
  })
}
