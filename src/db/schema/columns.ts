import { integer, text } from 'drizzle-orm/sqlite-core'
import { createId } from '../../lib/cuid'

/** Every row id is a plain CUID2. */
export const id = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => createId())

/** Timestamps are epoch milliseconds: cheap to index and compare; ISO strings are made at the edge. */
export const timestamps = {
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}

export const bool = (name: string) => integer(name, { mode: 'boolean' })
