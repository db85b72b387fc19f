/**
 * Graceful shutdown of the real process: on SIGTERM the listener closes, requests already in
 * flight (including slow uploads) complete normally, written-behind state is flushed, the
 * database is closed cleanly (WAL checkpointed) and the process exits 0.
 */
import { expect, test } from 'bun:test'
import { waitFor } from '../helpers/wait'
import { Database } from 'bun:sqlite'
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { openDb } from '../../src/db/client'
import { systemClock } from '../../src/lib/time'
import { createKey } from '../../src/modules/keys/service'
import { createStore } from '../../src/modules/platform-stores/service'
import { tempDir } from '../helpers/app'
import { freePort, spawnServer } from '../helpers/server'

const SLOW = 20
const QUICK = 30

test('SIGTERM with requests in flight: all complete, the db is closed cleanly, exit 0', async () => {
  const dataDir = tempDir('sf-stop-')
  const db = openDb({ dataDir })
  const store = createStore({ ctx: { db, clock: systemClock }, input: { name: 'Stop Shop', plan: 'pro' } })
  const { id: keyId, key } = createKey({
    ctx: { db, clock: systemClock },
    input: { storeId: store.id, scopes: ['all'] },
  })
  db.$client.close()

  const [port, httpPort] = [await freePort(), await freePort()]
  const { proc, stderr } = await spawnServer({
    DATA_DIR: dataDir,
    PORT: String(port),
    HTTP_PORT: String(httpPort),
    RATE_LIMIT_KEY_PER_MIN: '100000',
    RATE_LIMIT_FLUSH_MS: '600000',
  })
  try {
    const ca = readFileSync(path.join(dataDir, 'tls', 'cert.pem'), 'utf8')
    const base = `https://127.0.0.1:${port}`
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }

    // Uploads whose bodies finish only after the signal: in flight when it lands, however busy the machine.
    let release = () => {}
    const signalled = new Promise<void>((r) => (release = r))
    let uploading = 0
    const slowBody = (i: number) => {
      let step = 0
      return new ReadableStream<Uint8Array>({
        async pull(c) {
          if (step === 0) c.enqueue(new TextEncoder().encode(`{"name":"slow ${i}"`))
          else if (step === 1) {
            // The first chunk is on the wire: this upload is in flight.
            uploading++
            await signalled
            c.enqueue(new TextEncoder().encode(',"price":2.5}'))
          } else c.close()
          step++
        },
      })
    }
    const call = (p: string, init: RequestInit = {}) =>
      fetch(base + p, { ...init, tls: { ca } } as RequestInit).then(
        async (r) => ({ status: r.status, body: await r.json().catch(() => null) }),
        (e: Error) => ({ status: 0, body: String(e) }),
      )
    const slow = Array.from({ length: SLOW }, (_, i) =>
      call('/api/v1/products', { method: 'POST', headers: auth, body: slowBody(i), duplex: 'half' } as RequestInit),
    )
    const quick = Array.from({ length: QUICK }, () => call('/api/v1/products', { headers: auth }))
    await waitFor('every slow upload in flight', () => uploading === SLOW)
    // The quick reads are answered beside the uploads before the signal: a read still waiting for
    // its connection to be accepted when the listener closes is refused, rightly, and which of
    // them are still waiting depends only on how busy the machine is.
    const quickResults = await Promise.all(quick)
    proc.kill('SIGTERM')

    // The listener is closed at once (a new connection is refused as soon as the signal is
    // handled); the process is still there finishing the uploads.
    let late = await call('/health', { keepalive: false })
    while (late.status !== 0 && proc.exitCode === null) late = await call('/health', { keepalive: false })
    expect(late.status).toBe(0)
    expect(proc.exitCode).toBeNull()
    release()

    const slowResults = await Promise.all(slow)
    for (const r of slowResults)
      expect(r).toEqual({ status: 201, body: { data: expect.objectContaining({ price: 2.5 }) } })
    for (const r of quickResults) expect(r.status).toBe(200)

    // The uploads in flight at the signal all got their 201 before the exit: the drain waited.
    expect(await proc.exited).toBe(0)
    const log = await stderr()
    expect(log).toContain('"shutting down"')
    expect(log).not.toContain('"error"')

    // Clean close: the WAL was checkpointed into the main file, and the file checks out.
    const wal = path.join(dataDir, 'storefront.db-wal')
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0)
    const check = new Database(path.join(dataDir, 'storefront.db'), { readonly: true })
    expect(check.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    expect(check.query('SELECT count(*) AS n FROM products WHERE store_id = ?').get(store.id)).toEqual({ n: SLOW })
    // Written-behind state was flushed on the way out: key usage and the rate-limit window.
    expect(
      check
        .query<{ last_used_at: number | null }, [string]>('SELECT last_used_at FROM api_keys WHERE id = ?')
        .get(keyId)!.last_used_at,
    ).not.toBeNull()
    expect(
      check.query<{ count: number }, [string]>('SELECT count FROM rate_limits WHERE key = ?').get(`key:${keyId}`)!
        .count,
    ).toBe(SLOW + QUICK)
    check.close()
  } finally {
    if (proc.exitCode === null) proc.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 30_000)
