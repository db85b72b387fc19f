/**
 * What each trigger or index costs an order: bench/profile-order-sql.ts run once as is and once
 * per schema variant (`--ddl`), in alternating rounds (as is, variant 1, variant 2, …, again), each
 * in its own process on a fresh database. Prints the medians per variant and the difference to
 * the unchanged schema: µs of process CPU per order over the timed batches (what a busy neighbour does not inflate), wall µs in the transaction, the orders and lines inserts' share, and
 * WAL pages per order (exact). Not a registered bench.
 *
 *   bun bench/weigh-ddl.ts [orders] [--rounds N] [--only name,name]
 */
const args = process.argv.slice(2)
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 5000)
const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 3
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]!.split(',') : null

const countsOnly = `DROP TRIGGER orders_counts_ai; CREATE TRIGGER orders_counts_ai AFTER INSERT ON orders BEGIN
  INSERT INTO order_counts (store_id, status, count) VALUES (NEW.store_id, NEW.status, 1)
  ON CONFLICT (store_id, status) DO UPDATE SET count = count + 1; END`
const customerOnly = `DROP TRIGGER orders_counts_ai; CREATE TRIGGER orders_counts_ai AFTER INSERT ON orders BEGIN
  UPDATE customers SET orders_count = orders_count + 1, total_spent = total_spent + NEW.total,
    first_order_at = coalesce(first_order_at, NEW.created_at), last_order_at = NEW.created_at
  WHERE id = NEW.customer_id; END`

/** name → DDL applied to the seeded database; '' is the schema as it is. */
const variants: [string, string][] = [
  ['(as is)', ''],
  ['orders_stats_ai', 'DROP TRIGGER orders_stats_ai'],
  ['orders_counts_ai', 'DROP TRIGGER orders_counts_ai'],
  ['  its customer update', countsOnly],
  ['  its order_counts upsert', customerOnly],
  ['order_names_ai', 'DROP TRIGGER order_names_ai'],
  ['order_events_ai', 'DROP TRIGGER order_events_ai'],
  ['order_items_stats_ai', 'DROP TRIGGER order_items_stats_ai'],
  ['all five triggers', 'DROP TRIGGER orders_stats_ai; DROP TRIGGER orders_counts_ai; DROP TRIGGER order_names_ai; DROP TRIGGER order_events_ai; DROP TRIGGER order_items_stats_ai'],
  ['orders_store_number_uq', 'DROP INDEX orders_store_number_uq'],
  ['orders_store_created_idx', 'DROP INDEX orders_store_created_idx'],
  ['orders_store_status_created_idx', 'DROP INDEX orders_store_status_created_idx'],
  ['orders_store_updated_idx', 'DROP INDEX orders_store_updated_idx'],
  ['orders_customer_created_idx', 'DROP INDEX orders_customer_created_idx'],
  ['orders_status_token_uq', 'DROP INDEX orders_status_token_uq'],
  ['order_items_order_idx', 'DROP INDEX order_items_order_idx'],
  ['order_items_product_idx', 'DROP INDEX order_items_product_idx'],
  ['customers_store_created_idx', 'DROP INDEX customers_store_created_idx'],
  ['customers_store_updated_idx', 'DROP INDEX customers_store_updated_idx'],
  ['order_events_store_id_idx', 'DROP INDEX order_events_store_id_idx'],
  ['order_events_order_rowid_idx', 'DROP INDEX order_events_order_rowid_idx'],
]
const picked = variants.filter(([name], i) => i === 0 || !only || only.includes(name.trim()))

type Run = { us: number; cpu: number; pages: number; orders: number; items: number }
const runs = new Map<string, Run[]>()
const script = new URL('./profile-order-sql.ts', import.meta.url).pathname
const stmt = (out: string, table: string) => Number(out.match(new RegExp(`([\\d.]+) µs  INSERT INTO ${table} `))?.[1] ?? NaN)
for (let r = 0; r < rounds; r++) {
  for (const [name, ddl] of picked) {
    const p = Bun.spawnSync(['bun', script, String(N), ...(ddl ? ['--ddl', ddl] : [])], { stderr: 'inherit' })
    const out = p.stdout.toString()
    const head = out.match(/([\d.]+) µs per order in the transaction.*?, ([\d.]+) WAL pages per order/)
    if (!head) throw new Error(`${name}: ${out}`)
    const run = { us: Number(head[1]), cpu: Number(out.match(/([\d.]+) µs CPU per order/)![1]), pages: Number(head[2]), orders: stmt(out, 'orders'), items: stmt(out, 'order_items') }
    runs.set(name, [...(runs.get(name) ?? []), run])
    console.error(`round ${r + 1} ${name}: ${run.cpu} µs CPU, ${run.us} µs wall, ${run.pages} pages`)
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const med = (name: string, k: keyof Run) => median(runs.get(name)!.map((x) => x[k]))
const base = picked[0]![0]
console.log(`${N} orders a run, ${rounds} alternating rounds, medians; Δ = the schema as is minus the variant (what the left-out piece costs)`)
console.log('| left out | µs CPU/order | Δ µs CPU | µs wall/order | INSERT orders µs | INSERT order_items µs | WAL pages/order | Δ pages |')
console.log('|---|---:|---:|---:|---:|---:|---:|---:|')
for (const [name] of picked) {
  const us = med(name, 'cpu')
  const pages = med(name, 'pages')
  const d = name === base ? '' : (med(base, 'cpu') - us).toFixed(1)
  const dp = name === base ? '' : (med(base, 'pages') - pages).toFixed(2)
  console.log(`| ${name} | ${us.toFixed(1)} | ${d} | ${med(name, 'us').toFixed(1)} | ${med(name, 'orders').toFixed(1)} | ${med(name, 'items').toFixed(1)} | ${pages.toFixed(2)} | ${dp} |`)
}
