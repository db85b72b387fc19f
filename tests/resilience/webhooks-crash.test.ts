/**
 * Durability of the outbox across a crash: the real server (`bun src/index.ts`) is killed with
 * SIGKILL while deliveries are in flight to a receiver that hangs; more events are written
 * while it is down; after a restart every event reaches the receiver (at least once, by
 * webhook-id). Only the pids this test spawned are killed.
 */
import { afterAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { tempDir } from '../helpers/app'
import { freePort, spawnServer } from '../helpers/server'
import { startReceiver } from '../helpers/webhook-receiver'
import { immediate, openDb, type Db } from '../../src/db/client'
import { createStore } from '../../src/modules/platform-stores/service'
import { createKey } from '../../src/modules/keys/service'
import { enqueueEvent } from '../../src/modules/webhooks/outbox'
import { systemClock } from '../../src/lib/time'
import { addProduct, uniqPhone } from '../helpers/factories'
import type { Deps } from '../../src/deps'

const dataDir = tempDir('sf-crash-')
const spawned: { kill(sig?: number | NodeJS.Signals): void; exited: Promise<number> }[] = []
let db: Db | undefined
afterAll(async () => {
  for (const p of spawned) p.kill(9)
  await Promise.all(spawned.map((p) => p.exited))
  db?.$client.close()
  rmSync(dataDir, { recursive: true, force: true })
})

test('SIGKILL mid-delivery, events written while down: after restart every event arrives', async () => {
  const rx = startReceiver()
  let mode: 'hang' | 'ok' = 'hang'
  let release!: () => void
  const released = new Promise<void>((r) => (release = r))
  rx.respond = async () => {
    if (mode === 'hang') {
      await released
      return new Response(null, { status: 503 })
    }
    return new Response(null, { status: 204 })
  }

  const port = await freePort()
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HTTP_PORT: String(await freePort()),
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_POLL_CRON: '* * * * * *',
    WEBHOOK_TIMEOUT_MS: '3000',
    WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1',
    WEBHOOK_CONCURRENCY_PER_ENDPOINT: '4',
    RATE_LIMIT_ORDERS_PER_MIN: '1000',
    LOG_LEVEL: 'info', // spawnServer waits for the "listening" line
  }
  const first = await spawnServer(env)
  spawned.push(first.proc)

  db = openDb({ dataDir, synchronous: 'NORMAL' })
  const store = createStore({
    ctx: { db, clock: systemClock },
    input: {
      name: 'Crash Shop',
      slug: `crash-${Date.now().toString(36)}`,
      plan: 'pro',
      currency: 'USD',
      whatsapp: '+14155550100',
    },
  })
  const key = createKey({ ctx: { db, clock: systemClock }, input: { storeId: store.id, scopes: ['all'] } }).key
  const product = addProduct({ db, clock: systemClock } as Deps, store.id, { price: 1000 })
  const api = (p: string, body: unknown, auth = true) =>
    fetch(`https://127.0.0.1:${port}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
      tls: { rejectUnauthorized: false },
    } as RequestInit)

  const hookRes = await api('/api/v1/webhooks', { url: rx.url, events: ['order.created'] })
  expect(hookRes.status).toBe(201)

  // Six orders through the API: four go in flight and hang, two wait behind the per-endpoint bound.
  const events: string[] = []
  for (let i = 0; i < 6; i++) {
    const res = await api(
      '/api/orders',
      {
        storeId: store.id,
        name: 'Ana',
        phone: uniqPhone(),
        address: 'Calle 1',
        items: [{ productId: product.id, quantity: i + 1 }],
      },
      false,
    )
    expect(res.status).toBe(201)
    events.push(((await res.json()) as { id: string }).id)
  }
  await rx.waitFor(() => rx.received.length >= 4, 10_000)
  const beforeKill = db.$client
    .query<{ status: string; n: number }, []>('SELECT status, COUNT(*) AS n FROM webhook_deliveries GROUP BY status')
    .all()
  first.proc.kill(9)
  expect(await first.proc.exited).not.toBe(0)
  // The crash left claimed rows behind: this is the case being tested.
  expect(beforeKill.find((r) => r.status === 'sending')?.n ?? 0).toBeGreaterThanOrEqual(1)

  // Written while the server is down (as the CLI or a second process could).
  const client = db.$client
  for (let i = 0; i < 3; i++)
    immediate(db, () => enqueueEvent(client, store.id, 'order.created', { id: `offline-${i}` }, Date.now()))

  mode = 'ok'
  release()
  for (let i = 0; i < 3; i++) events.push(`offline-${i}`)
  // Some events are delivery rows by now (claimed, or waiting behind the bound), the rest still
  // in the outbox (the offline ones, and any the dispatcher had not moved yet).
  const count = (table: string) => client.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n
  expect(count('webhook_deliveries') + count('webhook_outbox')).toBe(9)
  expect(count('webhook_outbox')).toBeGreaterThanOrEqual(3)
  const okFrom = rx.received.length

  const second = await spawnServer(env)
  spawned.push(second.proc)
  const delivered = () =>
    new Set(rx.received.slice(okFrom).map((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id))
  await rx.waitFor(() => events.every((id) => delivered().has(id)), 20_000)
  expect(count('webhook_outbox')).toBe(0)
  // Every row ends succeeded once the server recorded the answers.
  const until = Date.now() + 10_000
  let states: { status: string; n: number }[] = []
  while (Date.now() < until) {
    states = db.$client
      .query<{ status: string; n: number }, []>('SELECT status, COUNT(*) AS n FROM webhook_deliveries GROUP BY status')
      .all()
    if (states.length === 1 && states[0]!.status === 'succeeded') break
    await Bun.sleep(50)
  }
  expect(states).toEqual([{ status: 'succeeded', n: 9 }])
  second.proc.kill('SIGTERM')
  expect(await second.proc.exited).toBe(0)
  rx.stop()
}, 60_000)
