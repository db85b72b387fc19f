/**
 * Upload exhaustion across tenants: uploads in flight are bounded per
 * store (429 + Retry-After before a byte is read), a waiting upload's body sits on disk, not in
 * memory, and the resize slot is shared store by store in turn.
 */
import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { expectStatus, appForFile, type Json } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { inResizeSlot } from '../../src/modules/products/images/process'

const t = appForFile({ mediaUploadsPerStore: 2, mediaUploadsTotal: 8 })

const jpeg = () =>
  sharp({ create: { width: 300, height: 200, channels: 3, background: '#2a7' } })
    .jpeg()
    .toBuffer()
const stagingDir = () => path.join(t.config.dataDir, 'media', 'staging')
const staged = () => (existsSync(stagingDir()) ? readdirSync(stagingDir()) : [])

async function product() {
  const { store, key } = makeShop(t.deps, { plan: 'pro' })
  const [res, body] = await t.api.post('/api/v1/products', { name: 'Vase', price: 30 }, { key })
  expectStatus(res, body).toBe(201)
  return { store, key, id: body.data.id as string }
}

const BOUNDARY = 'test-boundary-1234'
const head = new TextEncoder().encode(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
)
const tail = new TextEncoder().encode(`\r\n--${BOUNDARY}--\r\n`)

/** An upload whose body arrives when the test says so: it stays in flight until `finish`. */
function heldUpload(key: string, productId: string, bytes: Uint8Array) {
  let push!: ReadableStreamDefaultController<Uint8Array>
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (push = c) })
  push.enqueue(head)
  push.enqueue(bytes.subarray(0, 100))
  const response = t.app.handle(
    new Request(`http://localhost/api/v1/products/${productId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      duplex: 'half',
    } as RequestInit),
  )
  return {
    response,
    finish() {
      push.enqueue(bytes.subarray(100))
      push.enqueue(tail)
      push.close()
      return response
    },
  }
}

async function upload(key: string, productId: string, bytes: Uint8Array): Promise<[Response, Json]> {
  const form = new FormData()
  form.append('file', new File([bytes], 'a.jpg', { type: 'image/jpeg' }))
  const res = await t.app.handle(
    new Request(`http://localhost/api/v1/products/${productId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    }),
  )
  return [res, await res.json()]
}

/** Waits until `fn` holds, yielding to the event loop (no fixed sleep). */
async function until(fn: () => boolean, what: string) {
  for (let i = 0; i < 2000 && !fn(); i++) await new Promise((r) => setImmediate(r))
  if (!fn()) throw new Error(`never: ${what}`)
}

describe('uploads in flight', () => {
  test(
    'a third upload of one store while two are in flight → 429 with Retry-After, before its body is read; ' +
      'other stores go on',
    async () => {
      const a = await product()
      const b = await product()
      const bytes = await jpeg()
      const first = heldUpload(a.key, a.id, bytes)
      const second = heldUpload(a.key, a.id, bytes)
      await until(() => t.deps.uploads.inFlight(a.store.id) === 2, 'two uploads in flight')

      const [r3, b3] = await upload(a.key, a.id, bytes)
      expectStatus(r3, b3).toBe(429)
      expect(b3.code).toBe('RATE_LIMIT_EXCEEDED')
      expect(r3.headers.get('retry-after')).toBe('1')

      const [rb, bb] = await upload(b.key, b.id, bytes)
      expectStatus(rb, bb).toBe(201)

      // While they wait, their bytes are on disk, not held in memory.
      await until(() => staged().length === 2, 'two staged files')
      expect(readdirSync(stagingDir()).map((f) => statSync(path.join(stagingDir(), f)).mode & 0o777)).toEqual([
        0o600, 0o600,
      ])

      expect((await first.finish()).status).toBe(201)
      expect((await second.finish()).status).toBe(201)
      expect(t.deps.uploads.inFlight()).toBe(0)
      expect(staged()).toEqual([])
      const [r4, b4] = await upload(a.key, a.id, bytes)
      expectStatus(r4, b4).toBe(201)
    },
  )

  test('a refused or failed upload gives its place back and leaves no staged file', async () => {
    const a = await product()
    const [bad, badBody] = await upload(a.key, a.id, new TextEncoder().encode('not an image'))
    expectStatus(bad, badBody).toBe(400)
    expect(badBody.details.field).toBe('file')
    const res = await t.app.handle(
      new Request(`http://localhost/api/v1/products/${a.id}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
        body: '{}',
      }),
    )
    expect(res.status).toBe(400)
    expect(((await res.json()) as Json).details.field).toBe('file')
    expect(t.deps.uploads.inFlight()).toBe(0)
    expect(staged()).toEqual([])
  })
})

describe('the resize slot is shared store by store', () => {
  test("store A's one resize runs right after the current one, ahead of store B's queue", async () => {
    const order: string[] = []
    let releaseFirst!: () => void
    const firstHeld = new Promise<void>((r) => (releaseFirst = r))
    const running = inResizeSlot('B', async () => {
      order.push('B0')
      await firstHeld
    })
    const queued = [1, 2, 3, 4].map((i) => inResizeSlot('B', async () => void order.push(`B${i}`)))
    const a = inResizeSlot('A', async () => void order.push('A'))
    releaseFirst()
    await Promise.all([running, ...queued, a])
    expect(order.indexOf('A')).toBe(1)
    expect(order.filter((o) => o.startsWith('B'))).toEqual(['B0', 'B1', 'B2', 'B3', 'B4'])
  })
})
