import { sqliteTable, text, integer, uniqueIndex, index } from 'drizzle-orm/sqlite-core'
import { id } from './columns'
import { stores } from './stores'

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    name: text('name'),
    /** First characters of the key, shown in lists so an owner can tell keys apart. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the full key, hex. The secret itself is never stored. */
    hash: text('hash').notNull(),
    /** Space-separated scopes, or "all". */
    scopes: text('scopes').notNull(),
    expiresAt: integer('expires_at'),
    revokedAt: integer('revoked_at'),
    lastUsedAt: integer('last_used_at'),
    createdAt: integer('created_at').notNull(),
  },
  (k) => [uniqueIndex('api_keys_hash_uq').on(k.hash), index('api_keys_store_idx').on(k.storeId)],
)

export type ApiKey = typeof apiKeys.$inferSelect
