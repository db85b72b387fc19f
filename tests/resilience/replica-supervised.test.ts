/**
 * Replication with Litestream (src/replica): the settings, the generated
 * config, the lag arithmetic, the supervised child (restarted when it dies, a leftover from a
 * killed service stopped, stopped by its pid), the checkpoint hand-over proved by a restore equal
 * row for row, and `admin restore --from-replica` (latest, point in time, refusals).
 * The machine-loss case (SIGKILL mid-stream) is tests/resilience/replica.test.ts.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { runAdmin } from '../../src/cli/admin'
import { ConfigError, loadConfig } from '../../src/config'
import { createLogger } from '../../src/lib/log'
import { prepareOrder } from '../../src/modules/orders/checkout/prepare'
import {
  litestreamBin,
  litestreamEnv,
  litestreamYaml,
  PID_FILE,
  SYNC_INTERVAL_MS,
  withConfig,
  writeLitestreamConfig,
} from '../../src/replica/litestream'
import { isOurLitestream } from '../../src/replica/pid'
import { lagSeconds, restartDelayMs } from '../../src/replica/status'
import { ReplicaSupervisor } from '../../src/replica/supervisor'
import { tempDir } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addProduct, uniqPhone } from '../helpers/factories'
import { startTestServer, type TestServer } from '../helpers/server'
import { userTables } from './lib'

const dirs: string[] = []
const dir = (prefix: string) => {
  const d = tempDir(prefix)
  dirs.push(d)
  return d
}
const servers: TestServer[] = []
afterAll(async () => {
  for (const s of servers) await s.stop()
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }))
})

const until = async (what: string, cond: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(20)
  }
}
const admin = (env: Record<string, string>, ...argv: string[]) => {
  const out: string[] = []
  const code = runAdmin(
    [...argv, '--json'],
    (s) => out.push(s),
    env,
    () => {},
  )
  return { code, json: JSON.parse(out[0]!) as Record<string, unknown> }
}

/** A served DATA_DIR replicating to a fresh file replica; the directory is kept for the restore. */
async function replicating() {
  const replicaDir = dir('sf-replica-')
  const s = await startTestServer({ replicaUrl: `file://${replicaDir}` }, { keepDir: true })
  servers.push(s)
  dirs.push(s.config.dataDir)
  const replica = s.running.deps.replica
  await until('the first shipment', () => replica.status().lagSeconds === 0)
  return { s, replica, replicaDir, env: { DATA_DIR: s.config.dataDir, REPLICA_URL: `file://${replicaDir}` } }
}

describe('settings and the generated config', () => {
  test('REPLICA_URL takes file:///absolute and s3://bucket/path; REPLICA_ENDPOINT only with s3', () => {
    expect(loadConfig({ REPLICA_URL: 'file:///srv/replica/' }).replicaUrl).toBe('file:///srv/replica')
    expect(
      loadConfig({ REPLICA_URL: 's3://shop-backups/storefront', REPLICA_ENDPOINT: 'https://s3.example.net' }),
    ).toMatchObject({ replicaUrl: 's3://shop-backups/storefront', replicaEndpoint: 'https://s3.example.net' })
    for (const bad of [
      'file://relative/dir',
      '/srv/replica',
      'https://bucket/x',
      'gcs://b/p',
      's3://key:secret@bucket/p',
    ]) {
      expect(() => loadConfig({ REPLICA_URL: bad })).toThrow(ConfigError)
    }
    expect(() => loadConfig({ REPLICA_URL: 'file:///srv/r', REPLICA_ENDPOINT: 'https://s3.example.net' })).toThrow(
      /REPLICA_ENDPOINT needs an s3/,
    )
  })

  test(
    'the YAML names the database, the replica and a sync interval of 1 s or less; ' +
      'it is 0600 and carries no credentials',
    () => {
      const d = dir('sf-rcfg-')
      const file = writeLitestreamConfig(d, { dataDir: d, url: 's3://b/p', endpoint: 'https://s3.example.net' })
      expect(statSync(file).mode & 0o777).toBe(0o600)
      const yaml = readFileSync(file, 'utf8')
      expect(yaml).toContain(`path: ${JSON.stringify(path.join(d, 'storefront.db'))}`)
      expect(yaml).toContain('url: "s3://b/p"')
      expect(yaml).toContain('endpoint: "https://s3.example.net"')
      expect(yaml).toContain(`sync-interval: ${SYNC_INTERVAL_MS}ms`)
      expect(SYNC_INTERVAL_MS).toBeLessThanOrEqual(1000)
      expect(litestreamYaml({ dataDir: d, url: 'file:///r' })).not.toContain('endpoint')
      expect(yaml).not.toMatch(/access-key|secret/i)
    },
  )

  test("Litestream's environment keeps its credentials and leaves the service's secrets out", () => {
    const env = litestreamEnv({
      PATH: '/bin',
      LITESTREAM_ACCESS_KEY_ID: 'a',
      LITESTREAM_SECRET_ACCESS_KEY: 'b',
      AWS_REGION: 'eu',
      SECRET_KEY: 'x'.repeat(40),
      BILLING_WEBHOOK_SECRET: 'y'.repeat(20),
    })
    expect(env).toEqual({
      PATH: '/bin',
      LITESTREAM_ACCESS_KEY_ID: 'a',
      LITESTREAM_SECRET_ACCESS_KEY: 'b',
      AWS_REGION: 'eu',
    })
  })
})

describe('the lag and the backoff', () => {
  test(
    '0 while the WAL has not changed since the shipped pass began; otherwise the time since; ' +
      'null before any shipment',
    () => {
      expect(lagSeconds(undefined, 5, 10)).toBeNull()
      expect(lagSeconds(1000, 900, 5000)).toBe(0)
      expect(lagSeconds(1000, undefined, 5000)).toBe(0)
      expect(lagSeconds(1000, 1200, 3500)).toBe(2.5)
    },
  )

  test('restarts wait 1 s doubling to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(restartDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000])
  })
})

describe('the supervised Litestream', () => {
  test('GET /health reports it running with its lag; off without REPLICA_URL', async () => {
    const { s } = await replicating()
    const body = (await (await s.fetch('/health')).json()) as Record<string, unknown>
    expect(body).toEqual({ status: 'ok', replica: { state: 'running', lagSeconds: 0 } })
    const plain = await startTestServer()
    servers.push(plain)
    expect(await (await plain.fetch('/health')).json()).toEqual({
      status: 'ok',
      replica: { state: 'off', lagSeconds: null },
    })
  })

  test("Litestream's files beside the data and in a file replica are owner-only, like the database", async () => {
    const { s, replicaDir } = await replicating()
    const modes = (root: string): string[] =>
      readdirSync(root, { recursive: true, withFileTypes: true }).map(
        (e) => `${e.name} ${(statSync(path.join(e.parentPath, e.name)).mode & 0o777).toString(8)}`,
      )
    const meta = path.join(s.config.dataDir, '.storefront.db-litestream')
    for (const line of [...modes(meta), ...modes(replicaDir)]) expect(line).toMatch(/ (600|700)$/)
    expect(statSync(path.join(s.config.dataDir, 'litestream.yml')).mode & 0o777).toBe(0o600)
    expect(statSync(path.join(s.config.dataDir, PID_FILE)).mode & 0o777).toBe(0o600)
  })

  test('killed, it is restarted (state "restarting" meanwhile); stopped, it is gone with its pid file', async () => {
    const { s, replica } = await replicating()
    const first = replica.pid!
    expect(readFileSync(path.join(s.config.dataDir, PID_FILE), 'utf8').trim()).toBe(String(first))
    process.kill(first, 'SIGKILL')
    await until('restarting', () => replica.status().state === 'restarting')
    await until(
      'a new Litestream',
      () => replica.pid !== undefined && replica.pid !== first && replica.status().state === 'running',
      5000,
    )
    const second = replica.pid!
    await replica.stop()
    expect(replica.status()).toEqual({ state: 'off', lagSeconds: null })
    expect(isOurLitestream(second, s.config.dataDir)).toBe(false)
    expect(existsSync(path.join(s.config.dataDir, PID_FILE))).toBe(false)
  })

  test(
    'a Litestream left running by a SIGKILLed service is stopped by its pid before a new one starts, ' +
      'and blocks a restore meanwhile',
    async () => {
      const d = dir('sf-orphan-')
      const replicaUrl = `file://${dir('sf-orphan-replica-')}`
      const config = writeLitestreamConfig(d, { dataDir: d, url: replicaUrl })
      const orphan = Bun.spawn([litestreamBin(), ...withConfig('replicate', config)], {
        stdout: 'ignore',
        stderr: 'ignore',
      })
      await Bun.write(path.join(d, PID_FILE), `${orphan.pid}\n`)
      await until('the orphan to run', () => isOurLitestream(orphan.pid, d))
      expect(admin({ DATA_DIR: d, REPLICA_URL: replicaUrl }, 'restore', '--from-replica').json).toMatchObject({
        code: 'SERVICE_RUNNING',
        error: expect.stringContaining(`Litestream (pid ${orphan.pid})`),
      })

      const sup = new ReplicaSupervisor({ dataDir: d, url: replicaUrl }, createLogger('silent'))
      await sup.start({ up() {}, down() {} })
      try {
        await orphan.exited
        expect(sup.pid).not.toBe(orphan.pid)
        expect(readFileSync(path.join(d, PID_FILE), 'utf8').trim()).toBe(String(sup.pid))
      } finally {
        await sup.stop()
      }
    },
  )
})

describe('checkpoints handed to Litestream', () => {
  test('orders written in bursts while Litestream checkpoints and restarts the WAL: ' +
    'the restore equals the database row for row, in one generation', async () => {
    const { s, replica, replicaDir, env } = await replicating()
    const deps = s.running.deps
    const { store } = makeShop(deps)
    const product = addProduct(deps, store.id)
    const order = () =>
      prepareOrder(
        { storeId: store.id, name: 'Ada', phone: uniqPhone(), items: [{ productId: product.id, quantity: 1 }] },
        undefined,
        500,
      )
    // Bursts past Litestream's 1,000-page checkpoint threshold, each followed by a quiet moment
    // in which its checkpoint can restart the WAL.
    let maxWal = 0
    for (let burst = 0; burst < 5; burst++) {
      const results = await Promise.all(Array.from({ length: 300 }, () => deps.checkout.submit(order())))
      expect(results.every((r) => r.status === 201)).toBe(true)
      maxWal = Math.max(maxWal, statSync(path.join(s.config.dataDir, 'storefront.db-wal')).size)
      // Generous: on a loaded machine Litestream's own process gets little CPU; what is checked is the result.
      await until('the replica to catch up', () => replica.status().lagSeconds === 0, 60_000)
    }
    await s.running.stop()

    const generations = readdirSync(path.join(replicaDir, 'generations'))
    expect(generations.length).toBe(1)
    const walIndexes = new Set(
      readdirSync(path.join(replicaDir, 'generations', generations[0]!, 'wal')).map((f) => f.split('_')[0]),
    )
    expect(walIndexes.size).toBeGreaterThan(1)
    // Under Litestream's RESTART threshold (10,000 pages): its checkpoints kept up.
    expect(maxWal).toBeLessThan(10_000 * 4096)

    const fresh = dir('sf-replica-restored-')
    const restored = admin({ ...env, DATA_DIR: fresh }, 'restore', '--from-replica')
    expect(restored.code).toBe(0)
    expect(restored.json).toMatchObject({ integrity: 'ok', previous: null, secretKey: 'missing' })
    const a = new Database(path.join(s.config.dataDir, 'storefront.db'), { readonly: true })
    const b = new Database(path.join(fresh, 'storefront.db'), { readonly: true })
    try {
      const tables = userTables(a).filter((t) => !t.startsWith('_litestream'))
      expect(userTables(b).filter((t) => !t.startsWith('_litestream'))).toEqual(tables)
      // WITHOUT ROWID tables (FTS5's config shadow of order_names) read in primary-key order.
      const withoutRowid = (d: Database, t: string) =>
        /WITHOUT ROWID\s*$/i.test(
          d.query<{ sql: string | null }, [string]>('SELECT sql FROM sqlite_master WHERE name = ?').get(t)?.sql ?? '',
        )
      const rows = (d: Database, t: string) =>
        d.query(`SELECT * FROM "${t}"${withoutRowid(d, t) ? '' : ' ORDER BY rowid'}`).all()
      for (const t of tables) expect({ t, rows: rows(b, t) }).toEqual({ t, rows: rows(a, t) })
      expect(rows(b, 'orders').length).toBe(1500)
    } finally {
      a.close()
      b.close()
    }
  }, 180_000)
})

describe('admin restore --from-replica', () => {
  test('restores a point in time, keeps secret.key and moves the replaced database and shadow WAL aside', async () => {
    const { s, replica, env } = await replicating()
    const deps = s.running.deps
    makeShop(deps, { name: 'Before Shop' })
    await until('the first store shipped', () => replica.status().lagSeconds === 0)
    // A file replica's segment times are its files' mtimes: leave a clear gap either side.
    await Bun.sleep(1100)
    const between = new Date().toISOString()
    await Bun.sleep(1100)
    makeShop(deps, { name: 'After Shop' })
    await until('the second store shipped', () => replica.status().lagSeconds === 0)
    await s.running.stop()
    const key = readFileSync(path.join(s.config.dataDir, 'secret.key'))

    const names = () => {
      const db = new Database(path.join(s.config.dataDir, 'storefront.db'), { readonly: true })
      const n = db
        .query<{ name: string }, []>('SELECT name FROM stores ORDER BY name')
        .all()
        .map((r) => r.name)
      db.close()
      return n
    }
    const past = admin(env, 'restore', '--from-replica', '--timestamp', between)
    // Read before toMatchObject: Bun's asymmetric matchers write themselves into the object they match.
    const aside = past.json.previous as string
    expect(past.code).toBe(0)
    expect(past.json).toMatchObject({ integrity: 'ok', timestamp: between, secretKey: 'secret.key' })
    expect(path.basename(aside)).toStartWith('pre-restore-')
    expect(names()).toEqual(['Before Shop'])
    expect(readFileSync(path.join(s.config.dataDir, 'secret.key'))).toEqual(key)
    // With its -wal and -shm: Litestream's read transaction kept the service from folding the WAL in at close.
    expect(readdirSync(aside).sort()).toEqual([
      '.storefront.db-litestream',
      'storefront.db',
      'storefront.db-shm',
      'storefront.db-wal',
    ])
    expect(readdirSync(s.config.dataDir).filter((f) => f.startsWith('.replica-restore'))).toEqual([])
    expect(statSync(path.join(s.config.dataDir, 'storefront.db')).mode & 0o777).toBe(0o600)

    const latest = admin(env, 'restore', '--from-replica')
    expect(latest.code).toBe(0)
    expect(names()).toEqual(['After Shop', 'Before Shop'])
  }, 20_000)

  test(
    'refusals: no REPLICA_URL, a snapshot too, a bad or lone --timestamp (exit 2); ' +
      'an empty replica (exit 1, REPLICA)',
    () => {
      const d = dir('sf-rrestore-')
      const replicaUrl = `file://${dir('sf-empty-replica-')}`
      expect(admin({ DATA_DIR: d }, 'restore', '--from-replica')).toMatchObject({ code: 2, json: { code: 'USAGE' } })
      expect(
        admin({ DATA_DIR: d, REPLICA_URL: replicaUrl }, 'restore', '/some/snapshot', '--from-replica'),
      ).toMatchObject({ code: 2, json: { code: 'USAGE' } })
      expect(
        admin({ DATA_DIR: d, REPLICA_URL: replicaUrl }, 'restore', '--from-replica', '--timestamp', 'yesterday'),
      ).toMatchObject({ code: 2, json: { code: 'USAGE' } })
      expect(admin({ DATA_DIR: d }, 'restore', '/some/snapshot', '--timestamp', '2026-11-23T00:00:00Z')).toMatchObject({
        code: 2,
        json: { code: 'USAGE' },
      })
      expect(admin({ DATA_DIR: d, REPLICA_URL: replicaUrl }, 'restore', '--from-replica')).toMatchObject({
        code: 1,
        json: { code: 'REPLICA', error: expect.stringContaining('no matching backups found') },
      })
      expect(readdirSync(d).filter((f) => !f.startsWith('litestream'))).toEqual([])
    },
  )
})
