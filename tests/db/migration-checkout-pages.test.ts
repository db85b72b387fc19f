/**
 * drizzle/0021–0024 (decisions 012, 013): checkout's tables written the way they were before it. Orders
 * are placed, moved and opened over HTTP on a current database; its rows are then written into a
 * database of the schema before 0021 (each column both schemas have, the triggers held off so
 * nothing is derived twice, and what an older schema keeps elsewhere put where it kept it); that
 * database boots on the current code and answers the API, the status page and the panel exactly
 * as the original did, and takes the next move and the next order.
 */
import { afterAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { makeApp, tempDir, type TestApp } from '../helpers/app'
import { makeCatalog, makeKey, orderBody } from '../helpers/factories'
import { makeOwnerShop, PanelClient, signIn } from '../helpers/panel'

const ROOT = path.join(import.meta.dir, '../..')
const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))
const dir = (prefix: string) => {
  const d = tempDir(prefix)
  dirs.push(d)
  return d
}

/** The migrations as the fixture `step` (tests/fixtures/migration-history) recorded them. */
function migrationsAt(step: string): string {
  const out = dir('sf-migrations-')
  mkdirSync(path.join(out, 'meta'))
  const journal = JSON.parse(
    readFileSync(path.join(ROOT, 'tests/fixtures/migration-history', step, 'meta/_journal.json'), 'utf8'),
  ) as { entries: { tag: string }[] }
  writeFileSync(path.join(out, 'meta/_journal.json'), JSON.stringify(journal))
  for (const { tag } of journal.entries) cpSync(path.join(ROOT, 'drizzle', `${tag}.sql`), path.join(out, `${tag}.sql`))
  return out
}

const columnsOf = (db: Database, table: string) =>
  (db.query(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name)

/**
 * Every row of `from` into `to` (a database of an older schema): the columns both have, rowids
 * kept (the name index and the events refer to the orders' rowids), with `to`'s triggers dropped
 * meanwhile and put back after, so counters and logs are copied, not derived a second time.
 * `older` writes what the older schema keeps in a place the newer one no longer has.
 */
function copyInto(from: Database, to: Database, older: (from: Database, to: Database) => void): void {
  const triggers = to.query("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all() as {
    name: string
    sql: string
  }[]
  for (const t of triggers) to.run(`DROP TRIGGER "${t.name}"`)
  to.run('PRAGMA foreign_keys = OFF')
  const tables = (
    to
      .query(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' " +
          "AND name NOT LIKE '\\_\\_%' ESCAPE '\\' AND name NOT LIKE 'order_names_%'",
      )
      .all() as {
      name: string
      sql: string
    }[]
  ).filter((t) => from.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t.name))
  for (const { name, sql } of tables) {
    const shared = columnsOf(to, name).filter((c) => columnsOf(from, name).includes(c))
    const rowid = /WITHOUT ROWID/i.test(sql) ? [] : ['rowid']
    const cols = [...rowid, ...shared].map((c) => `"${c}"`).join(', ')
    to.run(`DELETE FROM "${name}"`)
    const insert = to.prepare(
      `INSERT INTO "${name}" (${cols}) VALUES (${[...rowid, ...shared].map(() => '?').join(', ')})`,
    )
    for (const row of from.query(`SELECT ${cols} FROM "${name}"`).values()) insert.run(...(row as never[]))
  }
  to.run('DELETE FROM sqlite_sequence')
  for (const s of from.query('SELECT name, seq FROM sqlite_sequence').all() as { name: string; seq: number }[])
    to.run('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', [s.name, s.seq])
  older(from, to)
  for (const t of triggers) to.run(t.sql)
}

/** What the customer, the API and the team see of `orderIds`. */
async function answers(t: TestApp, key: string, panel: PanelClient, orders: { id: string; statusUrl: string }[]) {
  const out: Record<string, unknown> = {}
  // Opened once first, so every page's unseen-orders count (in its frame) is the same in both runs.
  for (const o of orders) await panel.get(`/admin/orders/${o.id}`)
  const list = await t.api.get('/api/v1/orders?limit=50', { key })
  out.list = [list[0].status, list[1]]
  for (const o of orders) {
    const one = await t.api.get(`/api/v1/orders/${o.id}`, { key })
    out[`api ${o.id}`] = [one[0].status, one[1]]
    const page = await t.app.handle(new Request(o.statusUrl))
    out[`status ${o.id}`] = [page.status, await page.text()]
    const panelPage = await panel.get(`/admin/orders/${o.id}`)
    out[`panel ${o.id}`] = [panelPage.status, panelPage.text]
  }
  return out
}

/**
 * Places three orders (one cancelled, one confirmed), upgrades a copy of its rows written in the
 * schema of fixture `step`, and expects the same answers from both; then a move and an order.
 */
async function upgradeKeepsOrders(step: string, older: (from: Database, to: Database) => void) {
  const freshDir = dir('sf-fresh-')
  const fresh = makeApp({ dataDir: freshDir })
  const shop = await makeOwnerShop(fresh.deps, { name: 'Old Shop' })
  const key = makeKey(fresh.deps, shop.store.id)
  const cat = makeCatalog(fresh.deps, shop.store.id)
  const panel = new PanelClient((r) => fresh.app.handle(r))
  await signIn(panel, shop.email)
  const placed: { id: string; statusUrl: string }[] = []
  for (const name of ['Ana Old', 'Bruno Old', 'Carla Old']) {
    const [res, body] = await fresh.api.post('/api/orders', orderBody(shop.store.id, cat, { name }))
    expect(res.status).toBe(201)
    placed.push(body)
  }
  await fresh.api.put(`/api/v1/orders/${placed[0]!.id}/status`, { status: 'confirmed' }, { key })
  await fresh.api.put(`/api/v1/orders/${placed[1]!.id}/status`, { status: 'cancelled' }, { key })
  const before = await answers(fresh, key, panel, placed)
  fresh.close()

  const oldDir = dir('sf-upgrade-')
  const old = new Database(path.join(oldDir, 'storefront.db'), { create: true })
  migrate(drizzle(old), { migrationsFolder: migrationsAt(step) })
  const source = new Database(path.join(freshDir, 'storefront.db'), { readonly: true })
  copyInto(source, old, older)
  source.close()
  old.close()

  const upgraded = makeApp({ dataDir: oldDir })
  try {
    const panelAfter = new PanelClient((r) => upgraded.app.handle(r))
    panelAfter.cookies = new Map(panel.cookies)
    expect(await answers(upgraded, key, panelAfter, placed)).toEqual(before)
    // The old order's history goes on, and new orders are placed and shown as before.
    const [moved] = await upgraded.api.put(`/api/v1/orders/${placed[0]!.id}/status`, { status: 'shipped' }, { key })
    expect(moved.status).toBe(200)
    const history = await panelAfter.get(`/admin/orders/${placed[0]!.id}`)
    expect(history.text).toMatch(/status-pending.*status-confirmed.*status-shipped/s)
    const [res, next] = await upgraded.api.post('/api/orders', orderBody(shop.store.id, cat, { name: 'Dora New' }))
    expect(res.status).toBe(201)
    expect((await upgraded.app.handle(new Request(next.statusUrl))).status).toBe(200)
    const [, got] = await upgraded.api.get(`/api/v1/orders/${next.id}`, { key })
    expect(JSON.stringify(got)).toContain('Dora New')
    // The name search finds an order of the old schema and the new one.
    const found = async (q: string) =>
      ((await panelAfter.get(`/admin/orders?q=${encodeURIComponent(q)}`)).text.match(/<li class="order/g) ?? []).length
    expect({ old: await found('carla old'), new: await found('dora new') }).toEqual({ old: 1, new: 1 })
  } finally {
    upgraded.close()
  }
}

/** Before 0022 the status page's token had a table of its own. */
const linksTable = (from: Database, to: Database) => {
  const insert = to.prepare('INSERT INTO order_links (order_id, store_id, token) VALUES (?, ?, ?)')
  for (const o of from
    .query('SELECT id, store_id AS storeId, status_token AS token FROM orders WHERE status_token IS NOT NULL')
    .all() as { id: string; storeId: string; token: string }[])
    insert.run(o.id, o.storeId, o.token)
}

test('orders written before 0021 (events found by order id) read back the same and go on', async () => {
  await upgradeKeepsOrders('20-0020_drop-order-dedup-index', linksTable)
})

test('orders written before 0022 (status tokens in order_links) read back the same and go on', async () => {
  await upgradeKeepsOrders('21-0021_order-events-by-rowid', linksTable)
})

test('orders written before 0023 (order_items with a unique id) read back the same and go on', async () => {
  await upgradeKeepsOrders('22-0022_order-status-token', () => {})
})

test('orders written before 0024 (names indexed per order by the trigger) read back the same and go on', async () => {
  await upgradeKeepsOrders('23-0023_order-items-unindexed-id', () => {})
})
