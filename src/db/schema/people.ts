/**
 * People who sign in to the panel: users, their
 * memberships of stores with a role, one-time links (invitations, resets, sign-in links),
 * sessions, passkeys, recovery codes, and the activity log. Every secret is stored hashed
 * (SHA-256 of ≥ 128 random bits: tokens, session ids, recovery codes; argon2id: passwords) or
 * sealed with the secret box (the TOTP secret, which must be read again).
 */
import { sqliteTable, text, integer, uniqueIndex, index } from 'drizzle-orm/sqlite-core'
import { id } from './columns'
import { stores } from './stores'

export const ROLES = ['owner', 'staff', 'viewer'] as const
export type Role = (typeof ROLES)[number]
export const PANEL_LANGUAGES = ['es', 'en', 'pt'] as const

export const users = sqliteTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    /** Lower-cased e-mail: unique, case-insensitive. */
    emailKey: text('email_key').notNull(),
    name: text('name').notNull().default(''),
    /** argon2id (Bun.password, PHC string); null until an invitation is accepted. */
    passwordHash: text('password_hash'),
    /** The person's own choice of words (es | en | pt); null: from the browser, then the store. */
    language: text('language', { enum: PANEL_LANGUAGES }),
    /** TOTP secret, sealed with the secret box (aad = user id); null: no two-step sign-in. */
    totpSecret: text('totp_secret'),
    /** Set once a first code proved the secret was taken; a secret without it is a setup in progress. */
    totpEnabledAt: integer('totp_enabled_at'),
    /** The last 30-second step a code was accepted for: a code is used once (replay). */
    totpLastStep: integer('totp_last_step'),
    /**
     * A new TOTP secret being set up (sealed like `totpSecret`): the one in force stays in force
     * until a code from this one is confirmed (re-enrolling never turns two-step off meanwhile).
     */
    totpPendingSecret: text('totp_pending_secret'),
    /**
     * Set when a reset link was issued (`user:reset`, an owner's Team page): the password no longer
     * signs in, nor do passkeys, until that link is used (docs/panel.md, "Security").
     */
    resetPendingAt: integer('reset_pending_at'),
    lastSignInAt: integer('last_sign_in_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (u) => [uniqueIndex('users_email_uq').on(u.emailKey)],
)

export const memberships = sqliteTable(
  'memberships',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (m) => [uniqueIndex('memberships_store_user_uq').on(m.storeId, m.userId), index('memberships_user_idx').on(m.userId)],
)

export const LINK_KINDS = ['invite', 'reset', 'signin'] as const
export type LinkKind = (typeof LINK_KINDS)[number]

/**
 * One-time links: an invitation to a store (`invite`, with the role it grants), a password reset
 * from `user:reset` (`reset`), or the demo's sign-in link (`signin`). Only the token's hash is kept.
 */
export const invitations = sqliteTable(
  'invitations',
  {
    id: id(),
    kind: text('kind', { enum: LINK_KINDS }).notNull(),
    /** The store an invitation is for (null for a reset). */
    storeId: text('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    /** The person it is for: set for resets and sign-in links, and for an invitation once accepted. */
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name'),
    role: text('role', { enum: ROLES }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    /** Who made it: a user id, or `cli`. */
    createdBy: text('created_by').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (i) => [
    uniqueIndex('invitations_token_uq').on(i.tokenHash),
    index('invitations_store_idx').on(i.storeId, i.createdAt),
  ],
)

export const sessions = sqliteTable(
  'sessions',
  {
    id: id(),
    /** SHA-256 of the cookie's random id: the id itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The store the person is working in (the store switcher). */
    storeId: text('store_id').references(() => stores.id, { onDelete: 'set null' }),
    /** 1: the password was right, the second step (TOTP or recovery code) is still due; opens nothing else. */
    pending: integer('pending', { mode: 'boolean' }).notNull().default(false),
    userAgent: text('user_agent'),
    /** The client's address cut to its /24 (IPv4) or /48 (IPv6): enough to recognise a device's network. */
    ipPrefix: text('ip_prefix'),
    createdAt: integer('created_at').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
    /**
     * When the person last proved it is them in this session (password, passkey, two-step code or a
     * one-time link): sensitive changes need a proof from the last 10 minutes (panel/confirm.ts).
     */
    provedAt: integer('proved_at'),
  },
  (s) => [uniqueIndex('sessions_token_uq').on(s.tokenHash), index('sessions_user_idx').on(s.userId)],
)

export const passkeys = sqliteTable(
  'passkeys',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the authenticator names it. */
    credentialId: text('credential_id').notNull(),
    /** COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: integer('counter').notNull().default(0),
    /** JSON array of transports the browser reported. */
    transports: text('transports'),
    name: text('name').notNull(),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
  },
  (p) => [uniqueIndex('passkeys_credential_uq').on(p.credentialId), index('passkeys_user_idx').on(p.userId)],
)

export const recoveryCodes = sqliteTable(
  'recovery_codes',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: integer('used_at'),
    createdAt: integer('created_at').notNull(),
  },
  (r) => [index('recovery_codes_user_idx').on(r.userId)],
)

/**
 * Who changed what, when: written in the writing transaction, kept
 * 180 days. `actor` is `user:<id>`, `key:<prefix>`, `cli` or `system`.
 */
export const activity = sqliteTable(
  'activity',
  {
    seq: integer('seq').primaryKey(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    actor: text('actor').notNull(),
    /** The actor's name as it was when the action happened (a later rename does not relabel history). */
    actorName: text('actor_name'),
    verb: text('verb').notNull(),
    recordType: text('record_type').notNull(),
    recordId: text('record_id'),
    at: integer('at').notNull(),
  },
  (a) => [
    index('activity_store_at_idx').on(a.storeId, a.at),
    index('activity_store_actor_idx').on(a.storeId, a.actor, a.at),
    index('activity_at_idx').on(a.at),
  ],
)

export type User = typeof users.$inferSelect
export type Membership = typeof memberships.$inferSelect
export type Invitation = typeof invitations.$inferSelect
export type Session = typeof sessions.$inferSelect
export type Passkey = typeof passkeys.$inferSelect
