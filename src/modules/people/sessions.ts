/**
 * Sessions: an opaque random id (256 bits) in the `__Host-sid` cookie, stored only as
 * its SHA-256; idle expiry 14 days, absolute 60 days. A new id at sign-in and at every
 * privilege change (rotate). A `pending` session proved the password but still owes the second
 * step: it opens nothing but the two-step page, for 10 minutes.
 */
import { and, asc, eq, ne, sql } from 'drizzle-orm'
import { sessions, users, type Session, type User } from '../../db/schema'
import { transaction } from '../../kernel/write'
import type { Db, Runner } from '../../db/client'
import { DAY_MS } from '../../lib/time'
import type { OperatorCtx } from '../../kernel/context'
import type { PeopleCtx } from './context'
import { hashToken, randomToken, TOKEN_RE } from './tokens'
import { deleteExpiredSessions, deleteInvitationsBefore } from './sql'

export const COOKIE = '__Host-sid'
export const IDLE_MS = 14 * DAY_MS
export const ABSOLUTE_MS = 60 * DAY_MS
export const PENDING_MS = 10 * 60_000
/** lastSeenAt is written at most once a minute per session: a write per page view buys nothing. */
const TOUCH_MS = 60_000

/**
 * `Set-Cookie` for a new session id: exactly the documented
 * attributes (docs/panel.md; no Domain), kept 60 days by the browser.
 */
export const sessionCookie = (token: string): string =>
  `${COOKIE}=${token}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=${ABSOLUTE_MS / 1000}`
export const clearedCookie = (): string => `${COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`

/** The session id in a Cookie header, when well formed. */
export function tokenFromCookie(header: string | null): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eqAt = part.indexOf('=')
    if (eqAt < 0) continue
    if (part.slice(0, eqAt).trim() === COOKIE) {
      const v = part.slice(eqAt + 1).trim()
      return TOKEN_RE.test(v) ? v : undefined
    }
  }
  return undefined
}

/** An address cut to its network: /24 for IPv4, /48 for IPv6 (shown on "Your devices", never the full address). */
export function ipPrefix(ip: string): string | null {
  if (!ip || ip === 'unknown') return null
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.\d+$/i.exec(ip)
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`
  if (ip.includes(':')) {
    const groups = ip.split('::')[0]!.split(':').filter(Boolean).slice(0, 3)
    return `${groups.join(':')}::/48`
  }
  return null
}

export interface NewSession {
  userId: string
  storeId: string | null
  pending?: boolean
  userAgent?: string | null
  ip?: string
  /**
   * When the person last proved it is them: a sign-in is a proof (default: now, for a complete
   * session); a rotation keeps the old session's time (null: none).
   */
  provedAt?: number | null
}

export interface Opened {
  token: string
  session: Session
}

function insertSession(tx: Runner, now: number, s: NewSession): Opened {
  const token = randomToken()
  const session = tx
    .insert(sessions)
    .values({
      tokenHash: hashToken(token),
      userId: s.userId,
      storeId: s.storeId,
      pending: s.pending ?? false,
      userAgent: s.userAgent ? s.userAgent.slice(0, 256) : null,
      ipPrefix: ipPrefix(s.ip ?? ''),
      createdAt: now,
      lastSeenAt: now,
      provedAt: s.pending ? null : s.provedAt === undefined ? now : s.provedAt,
    })
    .returning()
    .get()
  return { token, session }
}

/**
 * Opens a session; `replacing` (the session the request came with, if any) ends in the same
 * transaction, so a sign-in or privilege change always hands out a new id (rotation).
 */
export function openSession({ ctx, input }: { ctx: PeopleCtx; input: NewSession & { replacing?: string } }): Opened {
  const now = ctx.clock.now()
  return transaction(ctx.db, (tx) => {
    if (input.replacing) tx.delete(sessions).where(eq(sessions.id, input.replacing)).run()
    if (!input.pending) tx.update(users).set({ lastSignInAt: now }).where(eq(users.id, input.userId)).run()
    return insertSession(tx, now, input)
  })
}

/** A new id for the same signed-in person and store (a privilege change: password, two-step, passkey). */
export function rotateSession({ ctx, input }: { ctx: PeopleCtx; input: { session: Session } }): Opened {
  const s = input.session
  return openSession({
    ctx,
    input: { userId: s.userId, storeId: s.storeId, userAgent: s.userAgent, replacing: s.id, provedAt: s.provedAt },
  })
}

/** Records that the person just proved it is them in this session (a password, passkey or two-step code). */
export function recordProof({ ctx, input }: { ctx: PeopleCtx; input: { sessionId: string } }): number {
  const now = ctx.clock.now()
  ctx.db.update(sessions).set({ provedAt: now }).where(eq(sessions.id, input.sessionId)).run()
  return now
}

export interface Resolved {
  session: Session
  user: User
}

/** The live session behind a cookie's id, with its person; expired ones are deleted on sight. */
// Every panel request resolves its session: prepared once per connection (see lookups.ts storesOf).
const sessionStatements = new WeakMap<Db, ReturnType<typeof prepareSessionByHash>>()
const prepareSessionByHash = (db: Db) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('hash')))
    .prepare()
function sessionByHash(db: Db, hash: string) {
  let stmt = sessionStatements.get(db)
  if (!stmt) sessionStatements.set(db, (stmt = prepareSessionByHash(db)))
  return stmt.get({ hash })
}

export function resolveSession({ ctx, input }: { ctx: PeopleCtx; input: { token: string } }): Resolved | undefined {
  const { db, clock } = ctx
  const row = sessionByHash(db, hashToken(input.token))
  if (!row) return undefined
  const now = clock.now()
  const { session } = row
  const expired = session.pending
    ? now - session.createdAt > PENDING_MS
    : now - session.lastSeenAt > IDLE_MS || now - session.createdAt > ABSOLUTE_MS
  if (expired) {
    db.delete(sessions).where(eq(sessions.id, session.id)).run()
    return undefined
  }
  if (now - session.lastSeenAt > TOUCH_MS) {
    db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, session.id)).run()
    session.lastSeenAt = now
  }
  return row
}

export function setSessionStore({
  ctx,
  input,
}: {
  ctx: PeopleCtx
  input: { sessionId: string; storeId: string }
}): void {
  ctx.db.update(sessions).set({ storeId: input.storeId }).where(eq(sessions.id, input.sessionId)).run()
}

export function listSessions({ ctx, input }: { ctx: PeopleCtx; input: { userId: string } }): Session[] {
  const now = ctx.clock.now()
  return ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, input.userId), eq(sessions.pending, false)))
    .orderBy(asc(sessions.createdAt))
    .all()
    .filter((s) => now - s.lastSeenAt <= IDLE_MS && now - s.createdAt <= ABSOLUTE_MS)
}

/** Ends one of the person's own sessions (another person's id ends nothing). */
export function endSession({ ctx, input }: { ctx: PeopleCtx; input: { userId: string; sessionId: string } }): boolean {
  const gone = ctx.db
    .delete(sessions)
    .where(and(eq(sessions.id, input.sessionId), eq(sessions.userId, input.userId)))
    .returning({ id: sessions.id })
    .all()
  return gone.length > 0
}

/** Ends every session of the person but `keep` (none: all of them). */
export function endOtherSessions({ ctx, input }: { ctx: PeopleCtx; input: { userId: string; keep?: string } }): number {
  const where = input.keep
    ? and(eq(sessions.userId, input.userId), ne(sessions.id, input.keep))
    : eq(sessions.userId, input.userId)
  return ctx.db.delete(sessions).where(where).returning({ id: sessions.id }).all().length
}

/** Deletes sessions past their expiry (the prune job). Takes the operator's ctx. */
export function pruneSessions({ ctx }: { ctx: OperatorCtx }): void {
  const now = ctx.clock.now()
  deleteExpiredSessions(ctx.db.$client, now - PENDING_MS, now - IDLE_MS, now - ABSOLUTE_MS)
}

/** Deletes one-time links a week past their expiry or use (the prune job). Takes the operator's ctx. */
export function pruneInvitations({ ctx }: { ctx: OperatorCtx }): void {
  deleteInvitationsBefore(ctx.db.$client, ctx.clock.now() - 7 * DAY_MS)
}
