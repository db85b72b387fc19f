/**
 * The panel's product list page read (`searchProducts`, 20 products a page): with each row's
 * stock summary (one grouped read of the page's active variants) and first picture (one read of
 * the page's images), beside a bare twin that reads only the page and its count — the read the
 * list made before it showed stock and thumbnails. Taken in turn, so a busy neighbour slows both
 * alike. Prints the median and p95 of each and the difference. Not a registered bench.
 *
 *   bun bench/products-list.ts [products, default 2000] [rounds, default 500]
 */
import { and, count, desc, eq, isNull } from 'drizzle-orm'
import { fmtInt, seed, tempDir } from './lib'
import type { Ctx } from '../src/kernel/context'
import type { Store } from '../src/db/schema'

const productCount = Number(process.argv[2] ?? 2000)
const rounds = Number(process.argv[3] ?? 500)
const dataDir = tempDir()
const seeded = await seed(dataDir, {
  products: productCount,
  variantsPerProduct: 3,
  categories: 0,
  scopes: [],
  plan: 'lifetime',
})

const { openDb } = await import('../src/db/client')
const { searchProducts } = await import('../src/modules/products')
const { products } = await import('../src/db/schema')
const db = openDb({ dataDir, synchronous: 'NORMAL' })
// Every product a picture row (the list reads the first of each), every variant tracked.
db.$client.run('UPDATE variants SET stock = 4')
const insert = db.$client.query(
  'INSERT INTO product_images (id, store_id, product_id, position, width, height, widths, created_at) ' +
    "VALUES (?, ?, ?, 0, 640, 480, '320,640', 0)",
)
for (const id of seeded.productIds) insert.run(`img-${id}`, seeded.storeId, id)
const store = db.$client.query<Store, [string]>('SELECT * FROM stores WHERE id = ?').get(seeded.storeId)!
const ctx = { db, clock: { now: Date.now }, config: {}, store } as unknown as Ctx

/** The list's read before stock and thumbnails: the page of products and the count. */
function bare() {
  const where = and(eq(products.storeId, store.id), isNull(products.deletedAt))
  const rows = db
    .select()
    .from(products)
    .where(where)
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(20)
    .offset(0)
    .all()
  const total = db.select({ n: count() }).from(products).where(where).get()!.n
  return { total, rows }
}
const full = () => searchProducts({ ctx, input: { limit: 20, offset: 0 } })

const cases = [
  { name: 'bare twin: page + count', run: bare, ms: [] as number[] },
  { name: 'searchProducts: + stock summary + first pictures', run: full, ms: [] as number[] },
]
for (let r = 0; r < 50; r++) for (const c of cases) c.run() // warm-up
for (let r = 0; r < rounds; r++)
  for (const c of cases) {
    const t0 = performance.now()
    c.run()
    c.ms.push(performance.now() - t0)
  }
const at = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!
const sample = full().data[0]!
console.log(
  `product list, first page of 20, ${fmtInt(productCount)} products × 3 variants, ${rounds} rounds each ` +
    `(row: stock ${sample.stock}, low ${sample.lowStock}, thumbnail ${sample.thumbnail ? 'yes' : 'no'})`,
)
console.log('| read | median ms | p95 ms |')
console.log('|---|---|---|')
for (const c of cases) console.log(`| ${c.name} | ${at(c.ms, 0.5).toFixed(3)} | ${at(c.ms, 0.95).toFixed(3)} |`)
console.log(`added per page (medians): ${(at(cases[1]!.ms, 0.5) - at(cases[0]!.ms, 0.5)).toFixed(3)} ms`)
db.$client.close()
