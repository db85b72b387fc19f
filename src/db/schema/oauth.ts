/**
 * Assistants connected without a key (docs/mcp.md "Connect an assistant", docs/decisions/023):
 * registered OAuth clients, one-use authorization codes, grants (one per "Allow": a person, a
 * store, a client and its scopes — the "connected app" a person can disconnect), and the grant's
 * access and refresh tokens. Codes and tokens are stored only as SHA-256 of 256 random bits.
 */
import { sqliteTable, text, integer, uniqueIndex, index } from 'drizzle-orm/sqlite-core'
import { id } from './columns'
import { stores } from './stores'
import { users } from './people'

export const oauthClients = sqliteTable('oauth_clients', {
  id: id(),
  /** The client's own name for itself (client_name), shown on the consent page as the client says it. */
  name: text('name').notNull(),
  /** JSON array of the registered redirect URIs (https, or http on a loopback address). */
  redirectUris: text('redirect_uris').notNull(),
  createdAt: integer('created_at').notNull(),
})

export const oauthGrants = sqliteTable(
  'oauth_grants',
  {
    id: id(),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    /** Space-separated scopes granted at consent (already capped by the role then; capped again at each use). */
    scopes: text('scopes').notNull(),
    /** The protected resource the tokens are for (`<origin>/mcp`). */
    resource: text('resource').notNull(),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
    /** Disconnect, revocation, or a reused code or refresh token: every token of the grant stops at once. */
    revokedAt: integer('revoked_at'),
  },
  (g) => [index('oauth_grants_user_idx').on(g.userId), index('oauth_grants_store_idx').on(g.storeId)],
)

export const oauthCodes = sqliteTable('oauth_codes', {
  /** SHA-256 of the code. */
  hash: text('hash').primaryKey(),
  /** The grant made at consent; the exchange issues its first tokens, a second exchange revokes it. */
  grantId: text('grant_id')
    .notNull()
    .references(() => oauthGrants.id, { onDelete: 'cascade' }),
  redirectUri: text('redirect_uri').notNull(),
  /** PKCE S256 code challenge. */
  challenge: text('challenge').notNull(),
  expiresAt: integer('expires_at').notNull(),
  usedAt: integer('used_at'),
})

export const OAUTH_TOKEN_KINDS = ['access', 'refresh'] as const

export const oauthTokens = sqliteTable(
  'oauth_tokens',
  {
    id: id(),
    /** SHA-256 of the token. */
    hash: text('hash').notNull(),
    grantId: text('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: OAUTH_TOKEN_KINDS }).notNull(),
    expiresAt: integer('expires_at').notNull(),
    /** A refresh token is used once: set when it is exchanged (rotation); a second use revokes the grant. */
    usedAt: integer('used_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('oauth_tokens_hash_uq').on(t.hash), index('oauth_tokens_grant_idx').on(t.grantId)],
)

export type OauthClient = typeof oauthClients.$inferSelect
export type OauthGrant = typeof oauthGrants.$inferSelect
