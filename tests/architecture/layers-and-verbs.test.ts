/**
 * The shapes the code relies on: every route declares its access (and the gate fails closed on
 * what none declares); a write's after-commit effects run once it committed, never after a
 * rollback; events emitted in a transaction commit or roll back with it.
 */
import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { createId } from '@paralleldrive/cuid2'
import { AccessTable, declaredRoutes } from '../../src/http/access'
import { access } from '../../src/plugins/access'
import { API_ACCESS } from '../../src/http/api-routes'
import { ctxFor } from '../../src/kernel/context'
import { savepoint } from '../../src/kernel/savepoint'
import { transact, transaction, write } from '../../src/kernel/write'
import { getStore } from '../../src/modules/platform-stores/service'
import { appForFile, expectStatus, type Json } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { makeCatalog, orderBody, placeOrder } from '../helpers/factories'
import { cycles, importGraph, layerOf, privateReaches, upwardImports } from '../helpers/import-graph'
import { adapterFaults, adapterSqlFaults, doorFaults, moduleDoorFaults } from '../helpers/module-doors'

const t = appForFile()

describe('access declared on each route', () => {
  test('every /api and /mcp route of the app declares its access, and the key routes name a scope or any key', () => {
    const api = t.app.routes.filter((r) => r.path.startsWith('/api/') || r.path === '/mcp')
    const declared = declaredRoutes(api)
    expect(declared.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      api.map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`).sort(),
    )
    for (const r of declared.filter((d) => d.path.startsWith('/api/v1/') && !d.path.startsWith('/api/v1/stores'))) {
      expect('scope' in r.access ? r.access.scope : undefined).toMatch(/^[a-z]+:(read|write)$/)
    }
    expect(API_ACCESS.length).toBeGreaterThan(40)
  })

  test('a route under /api without `access` stops the start', () => {
    const undeclared = new Elysia().use(access).get('/api/v1/secrets', () => 'x')
    expect(() => declaredRoutes(undeclared.routes)).toThrow(/GET \/api\/v1\/secrets declares no access/)
    // Elsewhere (health, docs) a declaration is not required.
    expect(declaredRoutes(new Elysia().get('/health', () => 'ok').routes)).toEqual([])
  })

  test('the table matches methods and parameters; what no route declares fails closed under /api/v1', () => {
    const table = new AccessTable(API_ACCESS)
    expect(table.match('PUT', '/api/v1/reviews/abc')).toMatchObject({
      policy: { kind: 'key', scope: 'reviews:write', feature: 'reviewModeration' },
      id: 'abc',
    })
    expect(table.match('HEAD', '/api/v1/products')).toMatchObject({ policy: { kind: 'key', scope: 'products:read' } })
    expect(table.match('POST', '/api/v1/webhooks/w1/deliveries/d1/retry')).toMatchObject({
      policy: { scope: 'webhooks:write' },
      id: 'w1',
    })
    expect(table.match('GET', '/api/v1/stores/some-shop').policy).toEqual({ kind: 'public', bucket: 'storeReads' })
    expect(table.match('PATCH', '/api/v1/products/x').policy).toEqual({ kind: 'key', scope: null })
    expect(table.match('GET', '/api/v1/nothing-here').policy).toEqual({ kind: 'key', scope: null })
    expect(table.match('GET', '/api/elsewhere').policy).toEqual({ kind: 'public', bucket: 'anonymous' })
    expect(table.match('GET', '/health').policy).toEqual({ kind: 'none' })
  })

  test('an undeclared /api/v1 path needs a key (401), and with one it is a 404', async () => {
    const [res, body] = await t.api.get('/api/v1/nothing-here')
    expectStatus(res, body).toBe(401)
    const { key } = makeShop(t.deps)
    const [res2, body2] = await t.api.get('/api/v1/nothing-here', { key })
    expectStatus(res2, body2).toBe(404)
  })

  test('the OpenAPI description opens with the declared scope and plan', async () => {
    const doc = (await (await t.app.handle(new Request('http://localhost/docs/json'))).json()) as Json
    expect(doc.paths['/api/v1/reviews/{id}'].delete.description).toStartWith(
      'Scope: `reviews:write`. Needs a Pro or Lifetime plan (feature `reviewModeration`).',
    )
    expect(doc.paths['/api/orders'].post.security).toEqual([])
  })
})

describe('one write helper: a transaction, then its effects', () => {
  const subscribe = (storeId: string, events: string[]) => {
    const now = Date.now()
    t.deps.db.$client.run(
      'INSERT INTO webhooks (id, store_id, url, events, is_active, secret, created_at, updated_at) ' +
        'VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
      [createId(), storeId, 'https://hooks.example.com/x', JSON.stringify(events), 'enc:test', now, now],
    )
  }
  const outboxRows = (storeId: string) =>
    t.deps.db.$client
      .query<{ n: number }, [string]>('SELECT count(*) AS n FROM webhook_outbox WHERE store_id = ?')
      .get(storeId)!.n

  function watch<T>(fn: (woken: string[], dropped: string[]) => T): T {
    const woken: string[] = []
    const dropped: string[] = []
    const { onOutbox, cache } = t.deps
    const invalidate = cache.invalidate
    t.deps.onOutbox = (id) => woken.push(id)
    cache.invalidate = (id) => (dropped.push(id), invalidate.call(cache, id))
    try {
      return fn(woken, dropped)
    } finally {
      t.deps.onOutbox = onOutbox
      cache.invalidate = invalidate
    }
  }

  test('an event emitted in a write commits with it and wakes the dispatcher after the commit', () => {
    const { store } = makeShop(t.deps)
    subscribe(store.id, ['order.updated'])
    const ctx = ctxFor(t.deps, store)
    watch((woken, dropped) => {
      let seenInside = -1
      write(ctx, (_tx, fx) => {
        fx.emit('order.updated', {
          id: 'o1',
          orderNumber: 'ORD-000001',
          previousStatus: 'pending',
          newStatus: 'confirmed',
          updatedAt: new Date().toISOString(),
        })
        seenInside = woken.length
      })
      expect(seenInside).toBe(0)
      expect(woken).toEqual([store.id])
      expect(dropped).toEqual([store.id])
      expect(outboxRows(store.id)).toBe(1)
    })
  })

  test('a write that throws leaves no event, no wake-up and no cache drop', () => {
    const { store } = makeShop(t.deps)
    subscribe(store.id, ['order.updated'])
    const ctx = ctxFor(t.deps, store)
    watch((woken, dropped) => {
      expect(() =>
        write(ctx, (_tx, fx) => {
          fx.emit('order.updated', {
            id: 'o1',
            orderNumber: 'ORD-000001',
            previousStatus: 'pending',
            newStatus: 'confirmed',
            updatedAt: new Date().toISOString(),
          })
          throw new Error('refused')
        }),
      ).toThrow('refused')
      expect(woken).toEqual([])
      expect(dropped).toEqual([])
      expect(outboxRows(store.id)).toBe(0)
    })
  })

  test("a savepoint that rolls back takes its own effects with it, not the others'", () => {
    const a = makeShop(t.deps).store
    const b = makeShop(t.deps).store
    for (const s of [a, b]) subscribe(s.id, ['order.updated'])
    const data = {
      id: 'o1',
      orderNumber: 'ORD-000001',
      previousStatus: 'pending' as const,
      newStatus: 'confirmed' as const,
      updatedAt: new Date().toISOString(),
    }
    watch((woken) => {
      const { result, effects } = transact(t.deps.db, (_tx, effects) => [
        savepoint(t.deps.db, effects, () => effects.fxFor(ctxFor(t.deps, a)).emit('order.updated', data)),
        savepoint(t.deps.db, effects, () => {
          effects.fxFor(ctxFor(t.deps, b)).emit('order.updated', data)
          throw new Error('this one fails')
        }),
      ])
      expect(result.map((r) => r.ok)).toEqual([true, false])
      effects.committed()
      expect(woken).toEqual([]) // not before the commit is durable
      effects.durable()
      expect(woken).toEqual([a.id])
      expect([outboxRows(a.id), outboxRows(b.id)]).toEqual([1, 0])
    })
  })

  test(
    "a store's listings stay through a commit only when every writer that touched it declared it changed " +
      'only stock',
    () => {
      const { store } = makeShop(t.deps)
      const seen: (boolean | undefined)[] = []
      const { cache } = t.deps
      const invalidate = cache.invalidate
      cache.invalidate = (id, changed) => (
        id === store.id && seen.push(changed?.stockOnly), invalidate.call(cache, id, changed)
      )
      // Each writer touches the store in its own savepoint; 'rolled back' is a silent one whose savepoint fails.
      const commit = (writers: ('declares' | 'silent' | 'rolled back')[], plainTouch = false) => {
        const { effects } = transact(t.deps.db, (_tx, effects) => {
          for (const w of writers)
            savepoint(t.deps.db, effects, () => {
              effects.touched(store.id)
              const fx = effects.fxFor(ctxFor(t.deps, store))
              if (w === 'declares') fx.catalogStockOnly()
              if (w === 'rolled back') throw new Error('refused')
            })
          if (plainTouch) effects.touched(store.id) // as transaction(…, stores) touches: no writer
        })
        effects.committed()
      }
      try {
        commit(['declares', 'declares'])
        commit(['declares', 'silent'])
        commit(['declares', 'rolled back'])
        commit(['declares'], true)
        commit([], true)
        expect(seen).toEqual([true, false, true, false, false])
      } finally {
        cache.invalidate = invalidate
      }
    },
  )

  test('a transaction names the stores it touched; one open at a time per connection', () => {
    const { store } = makeShop(t.deps)
    watch((_woken, dropped) => {
      expect(
        transaction(
          t.deps.db,
          () => 7,
          () => [store.id],
        ),
      ).toBe(7)
      expect(dropped).toEqual([store.id])
    })
    expect(() => transaction(t.deps.db, () => transaction(t.deps.db, () => 1))).toThrow(/already open/)
  })

  test('there is no emit outside a write: events are written only through the effects object a write hands out', () => {
    const ctx = ctxFor(t.deps, getStore({ ctx: { db: t.deps.db }, input: { id: makeShop(t.deps).store.id } })!)
    const review = {
      id: 'r1',
      productId: 'p1',
      productName: 'Mug',
      customerName: 'Ana',
      rating: 5,
      comment: null,
      status: 'pending' as const,
      createdAt: '',
      updatedAt: '',
    }
    // @ts-expect-error Ctx has no emit (kernel/write.ts): a call outside a transaction is a type error.
    const outside = () => ctx.emit('review.created', review)
    expect(outside).toThrow(TypeError)
    expect('emit' in ctx).toBe(false)
  })
})

test("derived counters follow the orders by trigger: order_counts and the customer's figures", () => {
  const { store } = makeShop(t.deps)
  const cat = makeCatalog(t.deps, store.id)
  const phone = '+14155550177'
  placeOrder(t.deps, orderBody(store.id, cat, { phone }))
  placeOrder(t.deps, orderBody(store.id, cat, { phone, items: [{ productId: cat.mug.id, quantity: 3 }] }))
  const sql = t.deps.db.$client
  t.deps.db.$client.run(
    "UPDATE orders SET status = 'cancelled' WHERE id = (SELECT id FROM orders WHERE store_id = ? LIMIT 1)",
    [store.id],
  )
  const counts = sql
    .query<{ status: string; count: number }, [string]>(
      'SELECT status, count FROM order_counts WHERE store_id = ? AND count > 0 ORDER BY status',
    )
    .all(store.id)
  expect(counts).toEqual([
    { status: 'cancelled', count: 1 },
    { status: 'pending', count: 1 },
  ])
  const c = sql
    .query<{ orders_count: number; total_spent: number }, [string]>(
      'SELECT orders_count, total_spent FROM customers WHERE store_id = ?',
    )
    .get(store.id)!
  const total = sql
    .query<{ n: number }, [string]>('SELECT sum(total) AS n FROM orders WHERE store_id = ?')
    .get(store.id)!.n
  expect(c).toEqual({ orders_count: 2, total_spent: total })
})

test('modules do not import each other in a cycle (type-only imports aside)', async () => {
  const { Glob } = await import('bun')
  const path = await import('node:path')
  const root = path.join(import.meta.dir, '../..')
  const transpiler = new Bun.Transpiler({ loader: 'ts' })
  const moduleOf = (file: string) => (file.startsWith('src/modules/') ? file.split('/').slice(0, 3).join('/') : file)
  const edges = new Map<string, Set<string>>()
  for await (const file of new Glob('src/**/*.ts').scan(root)) {
    const code = await Bun.file(path.join(root, file)).text()
    for (const imp of transpiler.scanImports(code)) {
      if (!imp.path.startsWith('.')) continue
      const target = `${path.relative(root, path.resolve(root, path.dirname(file), imp.path))}.ts`
      const [a, b] = [moduleOf(file), moduleOf(target)]
      if (a !== b) (edges.get(a) ?? edges.set(a, new Set()).get(a)!).add(b)
    }
  }
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    [...(edges.get(from) ?? [])].some((n) => n === to || (!seen.has(n) && (seen.add(n), reaches(n, to, seen))))
  const modules = [...edges.keys()].filter((m) => m.startsWith('src/modules/'))
  const cycles = modules.flatMap((a) =>
    modules.filter((b) => a < b && reaches(a, b) && reaches(b, a)).map((b) => `${a} ↔ ${b}`),
  )
  expect(cycles).toEqual([])
})

describe('imports point down, type imports included (docs/architecture.md)', () => {
  test('no two files of src/ import each other in a cycle, counting `import type`', async () => {
    expect(cycles(await importGraph())).toEqual([])
  })

  test('every file of src/ is in a layer, and no import points up a layer', async () => {
    const graph = await importGraph()
    expect([...graph.keys()].filter((f) => layerOf(f) < 0)).toEqual([])
    expect(upwardImports(graph)).toEqual([])
  })

  test("a module is reached by other code only through its index.ts (its routes by the API's route list)", async () => {
    expect(privateReaches(await importGraph())).toEqual([])
  })

  test('the graph sees type imports, export-from and dynamic imports (a check that can fail)', () => {
    const g = new Map([
      ['src/kernel/a.ts', new Set(['src/modules/x/b.ts'])],
      ['src/modules/x/b.ts', new Set(['src/kernel/a.ts'])],
    ])
    expect(cycles(g)).toEqual([['src/kernel/a.ts', 'src/modules/x/b.ts']])
    expect(upwardImports(g)).toEqual(['src/kernel/a.ts (kernel) → src/modules/x/b.ts (modules)'])
  })
})

test('handlers get what is resolved or bound, never a placeholder decorated onto the context', async () => {
  const { Glob } = await import('bun')
  const path = await import('node:path')
  const root = path.join(import.meta.dir, '../..')
  const faked: string[] = []
  for await (const f of new Glob('src/**/*.ts').scan(root)) {
    const text = await Bun.file(path.join(root, f)).text()
    if (/\.decorate\([^)]*undefined as unknown/.test(text)) faked.push(f)
  }
  expect(faked).toEqual([])
  expect(/\.decorate\([^)]*undefined as unknown/.test(".decorate('ctx', undefined as unknown as Ctx)")).toBe(true)
})

/**
 * Where raw SQL may be written: a module's sql.ts or sql/ folder, db/ (the toolkit, schema,
 * limiter), the kernel's savepoints, and backup/ (file-level VACUUM INTO and integrity checks).
 */
const RAW_SQL_HOMES = /(^|\/)sql(\.ts$|\/)|^src\/db\/|^src\/kernel\/|^src\/backup\//
/**
 * A raw statement's text handed to bun:sqlite: `.query(`, `.prepare(`,
 * `.run(` or `.exec(` with an SQL keyword in a string right after.
 */
const RAW_SQL =
  /\.(query|prepare|run|exec)(<[^>]*>)?\(\s*['"`]\s*(SELECT|INSERT|UPDATE|DELETE|WITH|PRAGMA|CREATE|DROP|VACUUM)\b/i

test("raw SQL lives in its module's sql.ts (or sql/), built with db/sql.ts; nowhere else in src/", async () => {
  const { Glob } = await import('bun')
  const path = await import('node:path')
  const root = path.join(import.meta.dir, '../..')
  const stray: string[] = []
  for await (const f of new Glob('src/**/*.ts').scan(root)) {
    if (RAW_SQL_HOMES.test(f)) continue
    const text = await Bun.file(path.join(root, f)).text()
    for (const m of text.matchAll(new RegExp(RAW_SQL.source, 'gi')))
      stray.push(`${f}:${text.slice(0, m.index).split('\n').length}`)
  }
  expect(stray).toEqual([])
  // The check can fail: a statement written inline in a service is found.
  expect(RAW_SQL.test("  db.query('DELETE FROM sessions WHERE id = ?').run(id)")).toBe(true)
  expect(RAW_SQL.test('  client.query<{ n: number }, []>(`SELECT count(*) AS n FROM passkeys`)')).toBe(true)
  expect(
    RAW_SQL.test("  client\n    .query<{ r: number }, [string]>(\n      'SELECT rowid AS r FROM order_names')"),
  ).toBe(true)
  expect(
    RAW_SQL_HOMES.test('src/modules/orders/sql/inbox.ts') &&
      RAW_SQL_HOMES.test('src/modules/stats/sql.ts') &&
      !RAW_SQL_HOMES.test('src/modules/stats/dashboard.ts'),
  ).toBe(true)
})

test('files of one idea: no file in src/ is over 300 lines', async () => {
  const { Glob } = await import('bun')
  const path = await import('node:path')
  const root = path.join(import.meta.dir, '../..')
  const long: string[] = []
  for await (const f of new Glob('src/**/*.ts').scan(root)) {
    const lines = (await Bun.file(path.join(root, f)).text()).split('\n').length - 1
    if (lines > 300) long.push(`${f}: ${lines}`)
  }
  expect(long).toEqual([])
})

describe("verbs at every module's door (docs/architecture.md)", () => {
  test(
    "a module's index.ts exports verbs and types: nothing from its sql files, " + 'no function taking a connection',
    async () => {
      expect(await moduleDoorFaults()).toEqual([])
    },
  )

  test('an adapter (API routes, panel, shop, MCP, CLI, jobs) imports no db/schema and runs no SQL', async () => {
    expect(await adapterSqlFaults()).toEqual([])
  })

  test('the checks can fail: a door re-exporting SQL or a raw helper, an adapter running SQL', () => {
    const files: Record<string, string> = {
      'src/modules/x/reads.ts':
        'export const rowsOf = (client: Database, id: string) => 1\n' +
        'export function stepTx(tx: Tx, id: string) {}\n' +
        'export function listX({ ctx, input }: { ctx: Ctx; input: {} }) {}\n' +
        'export const statements = perConnection((db) => ({}))',
    }
    const resolve = (_from: string, spec: string) => `src/modules/x/${spec.slice(2)}.ts`
    const door = (text: string) => doorFaults('src/modules/x/index.ts', text, (f) => files[f], resolve)
    expect(door("export * from './sql'\nexport * from './reads'")).toEqual([
      'src/modules/x/index.ts exports * from src/modules/x/sql.ts',
      'src/modules/x/index.ts exports rowsOf (src/modules/x/reads.ts) taking a connection',
      'src/modules/x/index.ts exports statements (src/modules/x/reads.ts) taking a connection',
    ])
    expect(door("export { listX, stepTx } from './reads'\nexport type { Row } from './sql'")).toEqual([])
    // A connection under any type name or parameter name, in any position, passed on through another file.
    files['src/modules/x/team.ts'] = "export { userByEmail, checkEmail } from './lookups'\nexport function invite() {}"
    files['src/modules/x/lookups.ts'] =
      'export const userByEmail = (db: Runner, email: string): User | undefined => undefined\n' +
      'export function checkEmail(raw: unknown) {}\n' +
      'export function membershipOf(client: Database, id: string) {}'
    files['src/modules/x/activity.ts'] =
      'export function listActivity(db: Runner, q: ActivityQuery) {}\n' +
      'export const ownThing = (ctx: Ctx, id: string, conn: SQLiteTransaction<"sync", void> = ctx.db) => 1\n' +
      'export function recordActivityTx(tx: Runner, at: number, e: Entry) {}\n' +
      'export function activityFacets({ ctx }: { ctx: Pick<Ctx, "db" | "store"> }) {}\n' +
      'export function each(rows: Map<string, Db>, fn: (tx: Tx) => void) {}'
    expect(door("export * from './team'\nexport * from './activity'")).toEqual([
      'src/modules/x/index.ts exports userByEmail (src/modules/x/lookups.ts) taking a connection',
      'src/modules/x/index.ts exports listActivity (src/modules/x/activity.ts) taking a connection',
      'src/modules/x/index.ts exports ownThing (src/modules/x/activity.ts) taking a connection',
    ])
    expect(
      adapterFaults(
        'src/panel/x.ts',
        "import { orders } from '../db/schema'\nconst a = itemsOf(ctx.db.$client, [id])\n" +
          "const b = db\n  .select()\n  .from(orders)\nclient.query('SELECT 1')",
      ),
    ).toEqual([
      'src/panel/x.ts:1 imports db/schema',
      'src/panel/x.ts:2 reaches the raw connection ($client)',
      'src/panel/x.ts:6 runs a raw statement (.query/.prepare)',
      'src/panel/x.ts:3 runs Drizzle (db.select/insert/update/delete)',
    ])
  })
})
