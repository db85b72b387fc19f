/**
 * The response cache's look for other connections' commits (db/commit-watch.ts): the WAL-index
 * header says when `PRAGMA data_version` needs asking, and what it answers is unchanged — a
 * commit by another connection shows once, this connection's own never does.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { CommitWatch } from '../src/db/commit-watch'
import { tempDir } from './helpers/app'

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

function walDb(): { file: string; db: Database } {
  const dir = tempDir()
  dirs.push(dir)
  const file = path.join(dir, 'x.db')
  const db = new Database(file)
  db.run('PRAGMA journal_mode = WAL')
  db.run('CREATE TABLE t (x)')
  return { file, db }
}

describe('CommitWatch', () => {
  test("another connection's commit shows once; this connection's own commits and reads never do", () => {
    const { file, db } = walDb()
    const watch = new CommitWatch(db)
    expect(watch.changed()).toBe(false)
    db.run('INSERT INTO t VALUES (1)')
    expect(watch.changed()).toBe(false)
    db.query('SELECT count(*) FROM t').get()
    expect(watch.changed()).toBe(false)

    const other = new Database(file)
    other.run('INSERT INTO t VALUES (2)')
    expect(watch.changed()).toBe(true)
    expect(watch.changed()).toBe(false)
    // Interleaved: ours, then theirs, then ours again — theirs still shows.
    db.run('INSERT INTO t VALUES (3)')
    other.run('INSERT INTO t VALUES (4)')
    db.run('INSERT INTO t VALUES (5)')
    expect(watch.changed()).toBe(true)
    expect(watch.changed()).toBe(false)
    other.close()
    db.close()
  })

  test('answers what PRAGMA data_version answers, over 400 random steps (commits, reads, checkpoints by either connection)', () => {
    const { file, db } = walDb()
    const other = new Database(file)
    const watch = new CommitWatch(db)
    const version = db.prepare<{ data_version: number }, []>('PRAGMA data_version')
    let last = version.get()!.data_version
    let seed = 7
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    for (let i = 0; i < 400; i++) {
      const step = Math.floor(rnd() * 8)
      if (step === 0) db.run('INSERT INTO t VALUES (?)', [i])
      else if (step === 1) other.run('INSERT INTO t VALUES (?)', [i])
      else if (step === 2) other.run('PRAGMA wal_checkpoint(TRUNCATE)')
      else if (step === 3) db.run('PRAGMA wal_checkpoint(PASSIVE)')
      else if (step === 4) other.query('SELECT count(*) FROM t').get()
      else if (step === 5) other.run('PRAGMA wal_checkpoint(PASSIVE)')
      else if (step === 6) other.run('PRAGMA wal_checkpoint(RESTART)')
      const v = version.get()!.data_version
      expect(watch.changed()).toBe(v !== last)
      last = v
    }
    other.close()
    db.close()
  })

  test('without a -shm to map (an in-memory database) it asks SQLite every time, with the same answers', () => {
    const db = new Database(':memory:')
    db.run('CREATE TABLE t (x)')
    const watch = new CommitWatch(db)
    db.run('INSERT INTO t VALUES (1)')
    expect(watch.changed()).toBe(false)
    db.close()
  })
})
