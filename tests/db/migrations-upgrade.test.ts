/**
 * Upgrades never break: a data directory migrated by any earlier commit boots on the current
 * code, ends in the schema a fresh database gets, and keeps its rows.
 *
 * tests/fixtures/migration-history/<n>-<commit>/ holds the migration journal as each commit that
 * changed drizzle/ left it, plus the migration files that commit had in another version (0006 was
 * edited twice after it was committed); every other file is today's. Each step's database is
 * made with Drizzle's own migrator from that folder, seeded, then opened by the current openDb().
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { openDb } from '../../src/db/client'
import { expectStatus, makeApp, tempDir } from '../helpers/app'
import { makeKey } from '../helpers/factories'

const ROOT = path.join(import.meta.dir, '../..')
const HISTORY = path.join(import.meta.dir, '../fixtures/migration-history')
const steps = readdirSync(HISTORY).sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** The migrations folder as the step's commit had it. */
function migrationsAt(step: string): string {
  const out = tempDir('sf-migrations-')
  dirs.push(out)
  mkdirSync(path.join(out, 'meta'))
  cpSync(path.join(HISTORY, step, 'meta/_journal.json'), path.join(out, 'meta/_journal.json'))
  const journal = JSON.parse(readFileSync(path.join(out, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[]
  }
  for (const { tag } of journal.entries) {
    const own = path.join(HISTORY, step, `${tag}.sql`)
    cpSync(existsSync(own) ? own : path.join(ROOT, 'drizzle', `${tag}.sql`), path.join(out, `${tag}.sql`))
  }
  return out
}

/** Columns, indexes, foreign keys and triggers of every table: what code relies on. */
function schemaOf(file: string): Record<string, unknown> {
  const db = new Database(file, { readonly: true })
  const out: Record<string, unknown> = {}
  const objects = db
    .query(
      "SELECT type, name, tbl_name AS tbl, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
    )
    .all() as {
    type: string
    name: string
    tbl: string
    sql: string | null
  }[]
  for (const o of objects) {
    if (o.type === 'table') {
      out[`table ${o.name}`] = {
        columns: db.query(`PRAGMA table_xinfo("${o.name}")`).all(),
        foreignKeys: db.query(`PRAGMA foreign_key_list("${o.name}")`).all(),
      }
    } else if (o.type === 'index') {
      out[`index ${o.name}`] = { table: o.tbl, columns: db.query(`PRAGMA index_xinfo("${o.name}")`).all(), sql: o.sql }
    } else {
      out[`${o.type} ${o.name}`] = o.sql?.replace(/\s+/g, ' ')
    }
  }
  db.close()
  return out
}

/** Rows that exist from the first schema on, written with that schema's columns. */
function seed(file: string, step: number) {
  const db = new Database(file)
  const now = Date.now()
  db.run(
    'INSERT INTO stores (id, name, slug, whatsapp_number, plan, created_at, updated_at) ' +
      "VALUES ('s1', 'Old Shop', 'old-shop', '+14155550100', 'pro', ?1, ?1)",
    [now],
  )
  db.run(
    'INSERT INTO products (id, store_id, name, slug, price, created_at, updated_at) ' +
      "VALUES ('p1', 's1', 'Old Mug', 'old-mug', 1250, ?1, ?1)",
    [now],
  )
  db.run(
    'INSERT INTO webhooks (id, store_id, url, events, secret, created_at, updated_at) ' +
      "VALUES ('w1', 's1', 'https://93.184.216.34/h', '[\"order.created\"]', 'x', ?1, ?1)",
    [now],
  )
  // From the outbox on (step 4), an event waiting to be moved must survive the upgrade.
  if (step >= 4) {
    db.run(
      'INSERT INTO webhook_outbox (webhook_id, store_id, event_type, payload, created_at) ' +
        "VALUES ('w1', 's1', 'review.created', '{\"type\":\"review.created\"}', ?1)",
      [now],
    )
  }
  db.close()
}

describe('a data directory from every committed migration step boots on the current code', () => {
  const fresh = tempDir('sf-fresh-')
  dirs.push(fresh)
  openDb({ dataDir: fresh }).$client.close()
  const expected = schemaOf(path.join(fresh, 'storefront.db'))

  for (const step of steps) {
    test(`step ${step}`, async () => {
      const dataDir = tempDir('sf-upgrade-')
      const file = path.join(dataDir, 'storefront.db')
      const old = new Database(file, { create: true })
      migrate(drizzle(old), { migrationsFolder: migrationsAt(step) })
      old.close()
      seed(file, parseInt(step, 10))

      const t = makeApp({ dataDir, logLevel: process.env.DEBUG_UPGRADE ? 'debug' : 'silent' })
      try {
        expect(schemaOf(file)).toEqual(expected)
        const key = makeKey(t.deps, 's1')
        const [res, body] = await t.api.get('/api/v1/products', { key })
        expectStatus(res, body).toBe(200)
        expect(body.data.map((p: { name: string; price: number }) => [p.name, p.price])).toEqual([['Old Mug', 12.5]])
        const [ordered, order] = await t.api.post('/api/orders', {
          storeId: 's1',
          name: 'Ana',
          phone: '+14155550123',
          items: [{ productId: 'p1', quantity: 2 }],
        })
        expectStatus(ordered, order).toBe(201)
        if (parseInt(step, 10) >= 4) {
          const kept = t.deps.db.$client
            .query("SELECT count(*) AS n FROM webhook_outbox WHERE event_type = 'review.created'")
            .get() as { n: number }
          const moved = t.deps.db.$client
            .query("SELECT count(*) AS n FROM webhook_deliveries WHERE event_type = 'review.created'")
            .get() as { n: number }
          expect(kept.n + moved.n).toBe(1)
        }
      } finally {
        t.close()
      }
    })
  }

  test('opening an upgraded database again changes nothing', () => {
    const dataDir = tempDir('sf-upgrade-')
    dirs.push(dataDir)
    const old = new Database(path.join(dataDir, 'storefront.db'), { create: true })
    migrate(drizzle(old), { migrationsFolder: migrationsAt(steps.find((s) => s.startsWith('4-'))!) })
    old.close()
    openDb({ dataDir }).$client.close()
    const once = schemaOf(path.join(dataDir, 'storefront.db'))
    openDb({ dataDir }).$client.close()
    expect(schemaOf(path.join(dataDir, 'storefront.db'))).toEqual(once)
  })
})
