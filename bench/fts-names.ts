/**
 * The name index's cost per order, trigger against one statement per batch, in bare bun:sqlite:
 * a table of orders with the same FTS5 trigram index as `order_names` (drizzle/0017), batches of
 * 50 rows in one transaction, each row in its own savepoint as checkout places orders, the
 * databases taken in turn batch by batch (a busy neighbour slows them alike). Prints process CPU
 * and WAL pages per row. Not a registered bench (decision 013).
 *
 *   bun bench/fts-names.ts [batches]
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import { tempDir } from './lib'

const batches = Number(process.argv[2] ?? 200)
const FTS = "CREATE VIRTUAL TABLE n USING fts5(name, store_id UNINDEXED, tokenize = 'trigram remove_diacritics 1')"
const TRIGGER =
  'CREATE TRIGGER t AFTER INSERT ON o BEGIN INSERT INTO n (rowid, name, store_id) ' +
  'VALUES (NEW.rowid, NEW.customer_name, NEW.store_id); END'
const variants = [
  { name: 'no name index', ddl: [] as string[], batch: false },
  { name: 'trigger per row', ddl: [FTS, TRIGGER], batch: false },
  { name: 'one INSERT … SELECT per batch', ddl: [FTS], batch: true },
  { name: 'trigger per row, again (noise)', ddl: [FTS, TRIGGER], batch: false },
]
const names = ['Bench Buyer', 'María López', 'Pedro Gómez', 'Ana Pérez', 'John Smith']
let k = 0
const dbs = variants.map((v) => {
  const file = path.join(tempDir(), 'names.db')
  const db = new Database(file, { create: true })
  for (const p of ['journal_mode = WAL', 'synchronous = NORMAL', 'wal_autocheckpoint = 0']) db.run(`PRAGMA ${p}`)
  db.run('CREATE TABLE o (id TEXT PRIMARY KEY, store_id TEXT, customer_name TEXT)')
  for (const s of v.ddl) db.run(s)
  const insert = db.prepare('INSERT INTO o VALUES (?, ?, ?)')
  const [sp, release] = [db.prepare('SAVEPOINT unit'), db.prepare('RELEASE unit')]
  const last = db.prepare<{ m: number }, []>('SELECT coalesce(max(rowid), 0) AS m FROM o')
  const index = v.batch
    ? db.prepare('INSERT INTO n (rowid, name, store_id) SELECT rowid, customer_name, store_id FROM o WHERE rowid > ?')
    : null
  const batch = () => {
    db.run('BEGIN IMMEDIATE')
    const from = last.get()!.m
    for (let i = 0; i < 50; i++) {
      sp.run()
      k++
      insert.run(`id${k}`, 'store1', `${names[k % names.length]} ${k % 97}`)
      release.run()
    }
    index?.run(from)
    db.run('COMMIT')
  }
  return { v, batch, wal: `${file}-wal`, cpu: 0, wal0: 0 }
})
for (let r = 0; r < 40; r++) for (const d of dbs) d.batch() // warm-up
for (const d of dbs) d.wal0 = Bun.file(d.wal).size
for (let r = 0; r < batches; r++)
  for (const d of dbs) {
    const c0 = process.cpuUsage()
    d.batch()
    const c = process.cpuUsage(c0)
    d.cpu += c.user + c.system
  }
const rows = batches * 50
for (const d of dbs)
  console.log(
    `${d.v.name.padEnd(32)} ${(d.cpu / rows).toFixed(1).padStart(6)} µs ` +
      `CPU/row  ${((Bun.file(d.wal).size - d.wal0) / 4120 / rows).toFixed(3)} WAL pages/row`,
  )
