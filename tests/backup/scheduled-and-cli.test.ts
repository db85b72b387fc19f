/**
 * Backups beyond the concurrent case (tests/resilience/backup.test.ts): the scheduled job keeps
 * BACKUP_KEEP snapshots in DATA_DIR/backups and runs off the event loop; restore refuses a
 * damaged snapshot or a folder that is not one and leaves DATA_DIR untouched; a pid file left by
 * a dead process does not block a restore; the settings are validated.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { waitFor } from '../helpers/wait'
import { Database } from 'bun:sqlite'
import {
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'
import { backupInWorker } from '../../src/backup/scheduled'
import { createSnapshot, listSnapshots, readManifest, rotateSnapshots } from '../../src/backup/snapshot'
import { holder, PID_FILE } from '../../src/backup/pid'
import { runAdmin } from '../../src/cli/admin'
import { ConfigError, loadConfig } from '../../src/config'
import { openDb } from '../../src/db/client'
import { tempDir } from '../helpers/app'
import { startTestServer } from '../helpers/server'

const dirs: string[] = []
const dir = (prefix: string) => {
  const d = tempDir(prefix)
  dirs.push(d)
  return d
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

function admin(dataDir: string, ...argv: string[]) {
  const out: string[] = []
  const code = runAdmin(
    [...argv, '--json'],
    (s) => out.push(s),
    { DATA_DIR: dataDir },
    () => {},
  )
  return { code, json: JSON.parse(out[0]!) }
}
const storeNames = (dataDir: string) => {
  const db = new Database(path.join(dataDir, 'storefront.db'), { readonly: true })
  const names = db
    .query<{ name: string }, []>('SELECT name FROM stores ORDER BY name')
    .all()
    .map((r) => r.name)
  db.close()
  return names
}

describe('the scheduled backup', () => {
  test('BACKUP_CRON runs in the service and keeps the newest BACKUP_KEEP snapshots in DATA_DIR/backups', async () => {
    const srv = await startTestServer({ backupCron: '* * * * * *', backupKeep: 2 })
    try {
      const backups = path.join(srv.config.dataDir, 'backups')
      const until = Date.now() + 8000
      while (listSnapshots(backups).length < 2 && Date.now() < until) await Bun.sleep(100)
      // A third tick rotates the oldest out.
      const first = listSnapshots(backups)[0]
      while (existsSync(first ?? '') && Date.now() < until) await Bun.sleep(100)
      const kept = listSnapshots(backups)
      expect(kept.length).toBe(2)
      expect(existsSync(first!)).toBe(false)
      for (const s of kept) {
        expect(readManifest(s)).toMatchObject({ format: 1, integrity: 'ok', secretKey: true })
        expect(statSync(s).mode & 0o777).toBe(0o700)
        for (const f of readdirSync(s))
          expect(`${f} ${(statSync(path.join(s, f)).mode & 0o777).toString(8)}`).toBe(`${f} 600`)
      }
      expect(statSync(backups).mode & 0o777).toBe(0o700)
    } finally {
      await srv.stop()
    }
  }, 15_000)

  test('rotation also clears partial folders a dead backup left (after an hour), never a complete snapshot', () => {
    const dataDir = dir('sf-bk-rot-')
    openDb({ dataDir }).$client.close()
    const dest = path.join(dataDir, 'backups')
    const t0 = Date.UTC(2026, 0, 1)
    for (let i = 0; i < 3; i++) createSnapshot(dataDir, dest, t0 + i * 1000)
    const partial = path.join(dest, '.storefront-2026-01-01T00-00-09-000Z.partial')
    mkdirSync(partial)
    expect(rotateSnapshots(dest, 2, Date.now())).toHaveLength(1)
    expect(existsSync(partial)).toBe(true) // fresh: maybe a backup still running
    expect(rotateSnapshots(dest, 2, Date.now() + 3_700_000)).toHaveLength(0)
    expect(existsSync(partial)).toBe(false)
    expect(listSnapshots(dest).map((p) => path.basename(p))).toEqual([
      'storefront-2026-01-01T00-00-01-000Z',
      'storefront-2026-01-01T00-00-02-000Z',
    ])
  })

  test('BACKUP_KEEP=0 schedules nothing', async () => {
    const srv = await startTestServer({ backupCron: '* * * * * *', backupKeep: 0 })
    // A control started after it, with the same schedule and BACKUP_KEEP=1: once the control has
    // written its backup, a tick has passed for both.
    const control = await startTestServer({ backupCron: '* * * * * *', backupKeep: 1 })
    try {
      await waitFor(
        "the control's scheduled backup",
        () => listSnapshots(path.join(control.config.dataDir, 'backups')).length > 0,
      )
      expect(existsSync(path.join(srv.config.dataDir, 'backups'))).toBe(false)
    } finally {
      await control.stop()
      await srv.stop()
    }
  })

  test('the copy runs in a worker: the event loop keeps turning while a database is copied', async () => {
    const dataDir = dir('sf-bk-big-')
    const db = openDb({ dataDir, synchronous: 'NORMAL' })
    db.$client.exec('CREATE TABLE filler (b BLOB)')
    db.$client.exec(
      'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO filler ' +
        'SELECT randomblob(10000) FROM n',
    )
    db.$client.close()

    // The same copy on the main thread, for the figure it is compared with.
    let t = performance.now()
    createSnapshot(dataDir, path.join(dataDir, 'inline'))
    const inlineMs = performance.now() - t

    let worst = 0
    let ticks = 0
    let last = performance.now()
    const tick = setInterval(() => {
      const now = performance.now()
      worst = Math.max(worst, now - last)
      last = now
      ticks++
    }, 1)
    t = performance.now()
    const result = await backupInWorker(dataDir, 7)
    const workerMs = performance.now() - t
    clearInterval(tick)
    expect(result.manifest.integrity).toBe('ok')
    expect(result.manifest.dbBytes).toBeGreaterThan(30_000_000)
    console.error(
      `30 MB snapshot: ${inlineMs.toFixed(0)} ms blocking on the main thread; ` +
        `in a worker ${workerMs.toFixed(0)} ms with the loop's longest gap ${worst.toFixed(1)} ms`,
    )
    // A copy on the main thread would let no timer fire until it ended; how long the gaps are
    // depends on what else the machine runs, so the figure is printed, not asserted.
    expect(ticks).toBeGreaterThan(2)
  }, 30_000)
})

describe('restore refuses, and changes nothing', () => {
  const setup = () => {
    const live = dir('sf-bk-live-')
    expect(admin(live, 'store:create', '--name', 'Original').code).toBe(0)
    const snapDir = dir('sf-bk-snaps-')
    const snap = admin(live, 'backup', '--to', snapDir).json.snapshot as string
    expect(admin(live, 'store:create', '--name', 'Later').code).toBe(0)
    return { live, snap }
  }

  test('a damaged snapshot fails its integrity check before anything is moved', () => {
    const { live, snap } = setup()
    const file = path.join(snap, 'storefront.db')
    const size = statSync(file).size
    // Scribble over the middle pages (b-tree pages of the tables), keeping the header valid.
    const fd = openSync(file, 'r+')
    writeSync(fd, Buffer.alloc(size / 2, 0x5a), 0, size / 2, 8192)
    closeSync(fd)
    const r = admin(live, 'restore', snap)
    expect(r.code).toBe(1)
    expect(r.json.code).toBe('INTEGRITY')
    expect(storeNames(live)).toEqual(['Later', 'Original'])
    expect(readdirSync(live).filter((f) => f.startsWith('pre-restore'))).toEqual([])
  })

  test('a folder that is not a snapshot', () => {
    const { live } = setup()
    const r = admin(live, 'restore', dir('sf-bk-empty-'))
    expect(r).toMatchObject({ code: 1, json: { code: 'BAD_SNAPSHOT' } })
    expect(storeNames(live)).toEqual(['Later', 'Original'])
  })

  test('a pid file naming a dead process does not block; the replaced files are kept aside', () => {
    const { live, snap } = setup()
    const dead = Bun.spawnSync(['true']).pid
    writeFileSync(path.join(live, PID_FILE), `${dead} ${hostname()}\n`)
    expect(holder(live)).toBeUndefined()
    const r = admin(live, 'restore', snap)
    expect(r.code).toBe(0)
    expect(r.json.integrity).toBe('ok')
    expect(storeNames(live)).toEqual(['Original'])
    // The database it replaced, with the store made after the backup, is still there.
    const previous = r.json.previous as string
    expect(storeNames(previous)).toEqual(['Later', 'Original'])
  })

  test('a snapshot without secret.key leaves the current key in place', () => {
    const { live, snap } = setup()
    // The CLI never makes a key (the service does): give DATA_DIR one, as a running service would.
    writeFileSync(path.join(live, 'secret.key'), `${'A'.repeat(43)}=\n`)
    expect(existsSync(path.join(snap, 'secret.key'))).toBe(false)
    const r = admin(live, 'restore', snap)
    expect(r.code).toBe(0)
    expect(readFileSync(path.join(live, 'secret.key'), 'utf8')).toBe(`${'A'.repeat(43)}=\n`)
  })

  test('a live pid, or one written on another host, blocks it', async () => {
    const { live, snap } = setup()
    // A process that is alive stands in for the service.
    const standIn = Bun.spawn(['sleep', '30'])
    try {
      for (const [content, named] of [
        [`${standIn.pid} ${hostname()}`, `pid ${standIn.pid}`],
        [`1 some-other-container`, 'pid 1 on host some-other-container'],
      ]) {
        writeFileSync(path.join(live, PID_FILE), `${content}\n`)
        const r = admin(live, 'restore', snap)
        expect(r.code).toBe(1)
        expect(r.json).toMatchObject({ code: 'SERVICE_RUNNING', error: expect.stringContaining(named!) })
        expect(storeNames(live)).toEqual(['Later', 'Original'])
      }
    } finally {
      standIn.kill()
      await standIn.exited
    }
  })

  test('backup of a DATA_DIR with no database is an error, not an empty snapshot', () => {
    const r = admin(dir('sf-bk-none-'), 'backup')
    expect(r.code).toBe(1)
    expect(r.json.error).toContain('no database')
  })
})

test('settings: BACKUP_CRON must be a cron pattern, BACKUP_KEEP a count; defaults daily and 7', () => {
  expect(loadConfig({})).toMatchObject({ backupCron: '0 30 3 * * *', backupKeep: 7 })
  expect(() => loadConfig({ BACKUP_CRON: 'daily' })).toThrow(ConfigError)
  expect(() => loadConfig({ BACKUP_KEEP: '-1' })).toThrow('BACKUP_KEEP')
  expect(readFileSync(path.join(import.meta.dir, '../../src/config.ts'), 'utf8')).toContain("'BACKUP_CRON'")
})
