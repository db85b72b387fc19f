/**
 * drizzle/0018–0019: the store-wide "opened" marks become per person. A data directory from
 * before them keeps what its team had opened: each order someone had opened inside the window of
 * "new" counts as opened by every member of its store; older marks are not carried (those orders
 * are no longer new to anyone), and `order_seen` is gone.
 */
import { afterAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { openDb } from '../../src/db/client'
import { tempDir } from '../helpers/app'

const ROOT = path.join(import.meta.dir, '../..')
const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** The migrations up to and including 0017 (the step before per-person marks). */
function migrationsBefore0018(): string {
  const out = tempDir('sf-migrations-')
  dirs.push(out)
  mkdirSync(path.join(out, 'meta'))
  const journal = JSON.parse(
    readFileSync(
      path.join(ROOT, 'tests/fixtures/migration-history/17-0017_order-names-search/meta/_journal.json'),
      'utf8',
    ),
  ) as { entries: { tag: string }[] }
  writeFileSync(path.join(out, 'meta/_journal.json'), JSON.stringify(journal))
  for (const { tag } of journal.entries) cpSync(path.join(ROOT, 'drizzle', `${tag}.sql`), path.join(out, `${tag}.sql`))
  return out
}

test('order_seen rows inside the window become marks of every member; older ones dropped; order_seen gone', () => {
  const dataDir = tempDir('sf-upgrade-')
  dirs.push(dataDir)
  const file = path.join(dataDir, 'storefront.db')
  const old = new Database(file, { create: true })
  migrate(drizzle(old), { migrationsFolder: migrationsBefore0018() })
  const now = Date.now()
  const month = 31 * 86_400_000
  old.run(
    'INSERT INTO stores (id, name, slug, whatsapp_number, plan, created_at, updated_at) ' +
      "VALUES ('s1', 'Old Shop', 'old-shop', '+14155550100', 'pro', ?1, ?1)",
    [now],
  )
  for (const u of ['u1', 'u2']) {
    old.run(
      'INSERT INTO users (id, email, email_key, created_at, updated_at) ' +
        "VALUES (?1, ?1 || '@example.com', ?1 || '@example.com', ?2, ?2)",
      [u, now - 2 * month],
    )
    old.run(
      'INSERT INTO memberships (id, store_id, user_id, role, created_at, updated_at) ' +
        "VALUES ('m' || ?1, 's1', ?1, 'owner', ?2, ?2)",
      [u, now - 2 * month],
    )
  }
  const orderAt = (id: string, at: number, n: number) =>
    old.run(
      `INSERT INTO orders (id, store_id, order_number, status, customer_name, customer_phone, currency,
      items_subtotal, discount_amount, total, dedup_hash, created_at, updated_at)
       VALUES (?1, 's1', ?2, 'pending', 'Ana', '+14155550123', 'USD', 1000, 0, 1000, ?1, ?3, ?3)`,
      [id, `ORD-00000${n}`, at],
    )
  orderAt('recent-opened', now - 1000, 1)
  orderAt('recent-unopened', now - 1000, 2)
  orderAt('old-opened', now - month, 3)
  old.run('DELETE FROM order_seen')
  old.run(
    "INSERT INTO order_seen (order_id, store_id, seen_at) VALUES ('recent-opened', 's1', ?1), " +
      "('old-opened', 's1', ?1)",
    [now],
  )
  old.close()

  const db = openDb({ dataDir })
  try {
    const marks = db.$client
      .query<{ o: string; u: string }, []>('SELECT order_id AS o, user_id AS u FROM order_opened ORDER BY o, u')
      .all()
    expect(marks).toEqual([
      { o: 'recent-opened', u: 'u1' },
      { o: 'recent-opened', u: 'u2' },
    ])
    expect(db.$client.query("SELECT name FROM sqlite_master WHERE name = 'order_seen'").get()).toBeNull()
  } finally {
    db.$client.close()
  }
})
