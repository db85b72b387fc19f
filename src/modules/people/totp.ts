/**
 * Optional two-step sign-in (contract): TOTP (RFC 6238, 30 s, 6 digits, SHA-1 — what every
 * authenticator app reads) via `otpauth`, its secret sealed at rest with the secret box like
 * webhook secrets, plus ten single-use recovery codes stored as hashes. A code is accepted once:
 * the step it was accepted for is kept, and an older or equal step is refused.
 */
import { and, eq, isNull, or, lt } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { randomBytes } from 'node:crypto'
import { recoveryCodes, users, type User } from '../../db/schema'
import { transaction } from '../../kernel/write'
import { ValidationError } from '../../lib/errors'
import { secretBoxOf } from '../../lib/secret-box'
import type { PeopleCtx } from './context'
import { hashToken } from './tokens'

const PERIOD = 30
export const RECOVERY_CODES = 10

const aad = (userId: string) => `totp:${userId}`
const totpOf = (secret: string, label: string, issuer: string) =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) })

/**
 * Begins a setup: a new secret, sealed beside the one in force (if any) and not yet in force. A
 * person who already has two-step keeps it, with the old secret, until a code from the new one is
 * confirmed: re-enrolling never leaves the account with a password alone.
 */
export function startTotp({ ctx, input }: { ctx: PeopleCtx; input: { user: User; issuer: string } }): {
  secret: string
  uri: string
} {
  const secret = new Secret({ size: 20 }).base32
  ctx.db
    .update(users)
    .set({ totpPendingSecret: secretBoxOf(ctx.config).seal(secret, aad(input.user.id)), updatedAt: ctx.clock.now() })
    .where(eq(users.id, input.user.id))
    .run()
  return { secret, uri: totpOf(secret, input.user.email, input.issuer).toString() }
}

/** The sealed secret of a setup in progress (a setup begun before re-enrolment kept two: the old column). */
const pendingSealed = (user: User): string | null =>
  user.totpPendingSecret ?? (user.totpEnabledAt === null ? user.totpSecret : null)

/** The setup in progress (secret and URI), to show it again. */
export function pendingTotp({
  ctx,
  input,
}: {
  ctx: PeopleCtx
  input: { user: User; issuer: string }
}): { secret: string; uri: string } | undefined {
  const { user } = input
  const sealed = pendingSealed(user)
  if (!sealed) return undefined
  const secret = secretBoxOf(ctx.config).open(sealed, aad(user.id))
  return { secret, uri: totpOf(secret, user.email, input.issuer).toString() }
}

/** The step a 6-digit code is valid for now (±1 step of clock drift), or undefined. */
function stepOf(secret: string, code: string, now: number): number | undefined {
  const delta = totpOf(secret, 'x', 'x').validate({ token: code, timestamp: now, window: 1 })
  if (delta === null) return undefined
  return Math.floor(now / 1000 / PERIOD) + delta
}

/** Takes a code for `userId` once: only a step later than the last accepted one counts. */
function takeStep(ctx: PeopleCtx, user: User, secret: string, code: string): boolean {
  if (!/^\d{6}$/.test(code)) return false
  const step = stepOf(secret, code, ctx.clock.now())
  if (step === undefined) return false
  const taken = ctx.db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id })
    .all()
  return taken.length === 1
}

const newCode = () => {
  const s = randomBytes(8).readBigUInt64BE().toString(36).padStart(13, '0').slice(-10)
  return `${s.slice(0, 5)}-${s.slice(5)}`
}
const normalizeCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '')

/**
 * Confirms the setup with a first code of the new secret, which then replaces the one in force;
 * returns the ten new recovery codes, shown once.
 */
export function confirmTotp({ ctx, input }: { ctx: PeopleCtx; input: { user: User; code: unknown } }): string[] {
  const { user } = input
  const code = typeof input.code === 'string' ? input.code.replace(/\s/g, '') : ''
  const sealed = pendingSealed(user)
  if (!sealed) throw new ValidationError('code', 'not_found', 'Start the set-up again')
  const secret = secretBoxOf(ctx.config).open(sealed, aad(user.id))
  const step = /^\d{6}$/.test(code) ? stepOf(secret, code, ctx.clock.now()) : undefined
  if (step === undefined) throw new ValidationError('code', 'invalid_format', 'That code is not right')
  const codes = Array.from({ length: RECOVERY_CODES }, newCode)
  const now = ctx.clock.now()
  transaction(ctx.db, (tx) => {
    // Guarded on the secret it checked: a second setup begun meanwhile is not confirmed by this code.
    const moved = tx
      .update(users)
      .set({ totpSecret: sealed, totpPendingSecret: null, totpEnabledAt: now, totpLastStep: step, updatedAt: now })
      .where(and(eq(users.id, user.id), or(eq(users.totpPendingSecret, sealed), eq(users.totpSecret, sealed))))
      .returning({ id: users.id })
      .all()
    if (moved.length === 0) throw new ValidationError('code', 'not_found', 'Start the set-up again')
    tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).run()
    for (const c of codes)
      tx.insert(recoveryCodes)
        .values({ userId: user.id, codeHash: hashToken(normalizeCode(c)), createdAt: now })
        .run()
  })
  return codes
}

export function disableTotp({ ctx, input }: { ctx: PeopleCtx; input: { userId: string } }): void {
  transaction(ctx.db, (tx) => {
    tx.update(users)
      .set({
        totpSecret: null,
        totpPendingSecret: null,
        totpEnabledAt: null,
        totpLastStep: null,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(users.id, input.userId))
      .run()
    tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, input.userId)).run()
  })
}

/** The second step: a current TOTP code (once) or an unused recovery code (once). */
export function checkSecondStep({
  ctx,
  input,
}: {
  ctx: PeopleCtx
  input: { user: User; code: unknown }
}): 'totp' | 'recovery' | undefined {
  const { user } = input
  const raw = typeof input.code === 'string' ? input.code.trim().slice(0, 64) : ''
  if (!user.totpSecret || user.totpEnabledAt === null || !raw) return undefined
  const digits = raw.replace(/\s/g, '')
  if (/^\d{6}$/.test(digits)) {
    const secret = secretBoxOf(ctx.config).open(user.totpSecret, aad(user.id))
    return takeStep(ctx, user, secret, digits) ? 'totp' : undefined
  }
  const used = ctx.db
    .update(recoveryCodes)
    .set({ usedAt: ctx.clock.now() })
    .where(
      and(
        eq(recoveryCodes.userId, user.id),
        eq(recoveryCodes.codeHash, hashToken(normalizeCode(raw))),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id })
    .all()
  return used.length === 1 ? 'recovery' : undefined
}

export function recoveryCodesLeft(ctx: PeopleCtx, userId: string): number {
  return ctx.db
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
    .all().length
}

/** For tests and the browser test: the code an authenticator would show now. */
export const totpCodeAt = (secret: string, timestamp: number): string =>
  totpOf(secret, 'x', 'x').generate({ timestamp })
