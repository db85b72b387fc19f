/**
 * Product images over HTTP with real image bytes made here by sharp: upload, what is stored and
 * served (WebP, no EXIF/GPS, orientation applied, immutable caching, nosniff), the bomb, the liar,
 * size limits, plan caps, other stores, concurrent uploads, reorder, delete, traversal.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { expectStatus, makeApp, type Json, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { startTestServer, type TestServer } from '../helpers/server'
import { bombPng, jpeg, noisyPng, png, solid } from '../helpers/image-fixtures'

let t: TestApp
beforeAll(() => {
  // These tests race uploads against the image caps; the in-flight bound per store (429) has its
  // own tests (upload-admission.test.ts), so here it is out of the way.
  t = makeApp({ mediaUploadsPerStore: 100, mediaUploadsTotal: 100 })
})
afterAll(() => t.close())

async function upload(
  key: string,
  productId: string,
  bytes: Uint8Array | string,
  name = 'photo.jpg',
  type = 'image/jpeg',
): Promise<[Response, Json]> {
  const form = new FormData()
  form.append('file', new File([bytes], name, { type }))
  const res = await t.app.handle(
    new Request(`http://localhost/api/v1/products/${productId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    }),
  )
  return [res, await res.json()]
}
const media = (url: string) => t.app.handle(new Request(`http://localhost${url}`))

async function product(plan: 'free' | 'pro' | 'lifetime' = 'pro') {
  const { store, key } = makeShop(t.deps, { plan })
  const [res, body] = await t.api.post('/api/v1/products', { name: 'Vase', price: 30 }, { key })
  expectStatus(res, body).toBe(201)
  return { store, key, id: body.data.id as string }
}

describe('upload', () => {
  test(
    'a JPEG → 201 { id, url, width, height, position }; WebP renditions at 320/640 (no upscaling), ' +
      'served immutable with nosniff',
    async () => {
      const { key, id } = await product()
      const [res, body] = await upload(key, id, await jpeg(800, 600))
      expectStatus(res, body).toBe(201)
      expect(body.data).toMatchObject({ width: 800, height: 600, position: 0 })
      expect(body.data.url).toMatch(/^\/media\/[a-z0-9]+\/[a-z0-9]+-800\.webp$/)
      expect(body.data.sizes.map((s: Json) => s.width)).toEqual([320, 640, 800])
      for (const s of body.data.sizes) {
        const r = await media(s.url)
        expect(r.status).toBe(200)
        expect(r.headers.get('content-type')).toBe('image/webp')
        expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
        expect(r.headers.get('x-content-type-options')).toBe('nosniff')
        const meta = await sharp(Buffer.from(await r.arrayBuffer())).metadata()
        expect([meta.format, meta.width]).toEqual(['webp', s.width])
      }
      // The product shows it, and its first image stands in for an unset imageUrl.
      const [, got] = await t.api.get(`/api/v1/products/${id}`, { key })
      expect(got.data.images).toEqual([body.data])
      expect(got.data.imageUrl).toBe(body.data.url)
    },
  )

  test('a large image is stored at 320/640/1280; the same bytes again get a new URL', async () => {
    const { key, id } = await product()
    const bytes = await png(2000, 1000)
    const [r1, b1] = await upload(key, id, bytes, 'a.png', 'image/png')
    expectStatus(r1, b1).toBe(201)
    expect([b1.data.width, b1.data.height, b1.data.sizes.map((s: Json) => s.width)]).toEqual([
      1280,
      640,
      [320, 640, 1280],
    ])
    const [, b2] = await upload(key, id, bytes, 'a.png', 'image/png')
    expect(b2.data.url).not.toBe(b1.data.url)
    expect(b2.data.position).toBe(1)
  })

  test('EXIF with GPS is gone after upload, orientation is applied, the original is kept private (0600)', async () => {
    const { store, key, id } = await product()
    // 800 × 600 stored pixels, EXIF orientation 6 (turn 90° clockwise to view), with GPS and a camera model.
    const bytes = await solid(800, 600)
      .jpeg()
      .withExif({
        IFD0: { Make: 'Spycam', Model: 'Leaky 1' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '40/1 26/1 46/1',
          GPSLongitudeRef: 'W',
          GPSLongitude: '79/1 58/1 56/1',
        },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer()
    const before = await sharp(bytes).metadata()
    expect(before.exif?.toString('latin1')).toContain('Spycam')
    expect(before.orientation).toBe(6)

    const [res, body] = await upload(key, id, bytes)
    expectStatus(res, body).toBe(201)
    expect([body.data.width, body.data.height]).toEqual([600, 800])
    for (const s of body.data.sizes) {
      const served = Buffer.from(await (await media(s.url)).arrayBuffer())
      const meta = await sharp(served).metadata()
      expect([meta.exif, meta.xmp, meta.icc, meta.orientation]).toEqual([undefined, undefined, undefined, undefined])
      expect(meta.width! < meta.height!).toBe(true)
      expect(served.toString('latin1')).not.toContain('Spycam')
    }
    const original = path.join(t.config.dataDir, 'media', 'originals', store.id, body.data.id)
    expect(statSync(original).mode & 0o777).toBe(0o600)
    // Originals are never served: no /media name reaches that directory.
    expect((await media(`/media/originals/${store.id}/${body.data.id}`)).status).toBe(404)
  })

  test('a decompression bomb (a few hundred bytes saying 30,000 × 30,000) → 400 too_many_pixels at once', async () => {
    const { key, id } = await product()
    const bomb = await bombPng()
    expect(bomb.length).toBeLessThan(1000)
    const [res, body] = await upload(key, id, bomb, 'bomb.png', 'image/png')
    expectStatus(res, body).toBe(400)
    // The width and height come from the header, read before any decoding: that the answer
    // names them is the proof the bomb was never decoded (its time is bench/images.ts's).
    expect(body.details).toMatchObject({ field: 'file', reason: 'too_many_pixels', width: 30_000, height: 30_000 })
  })

  test('a file that lies about its type → 400 naming file; content decides, not the name', async () => {
    const { key, id } = await product()
    const [r1, b1] = await upload(key, id, '<html><script>alert(1)</script></html>', 'photo.jpg', 'image/jpeg')
    expectStatus(r1, b1).toBe(400)
    expect(b1.details).toMatchObject({ field: 'file', reason: 'unsupported_type' })
    const pngHead = Buffer.from(await png(50, 50)).subarray(0, 40)
    const [r2, b2] = await upload(
      key,
      id,
      Buffer.concat([pngHead, Buffer.from('not really a png at all')]),
      'x.png',
      'image/png',
    )
    expectStatus(r2, b2).toBe(400)
    expect(b2.details).toMatchObject({ field: 'file', reason: 'invalid_image' })
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64')
    const [r3, b3] = await upload(key, id, gif, 'x.png', 'image/png')
    expect([r3.status, b3.details.reason]).toEqual([400, 'unsupported_type'])
    // A real JPEG named .png with a PNG type is accepted as what it is.
    const [r4, b4] = await upload(key, id, await jpeg(100, 100), 'x.png', 'image/png')
    expectStatus(r4, b4).toBe(201)
    const [r5, b5] = await t.api.post(`/api/v1/products/${id}/images`, { file: 'x' }, { key })
    expectStatus(r5, b5).toBe(400)
  })

  test(
    'over MEDIA_MAX_BYTES → 413 JSON, from the gate (body) and from the file size (within the multipart ' +
      'allowance)',
    async () => {
      const { key, id } = await product()
      const bytes = await noisyPng(400, 400)
      const saved = t.config.mediaMaxBytes
      try {
        t.config.mediaMaxBytes = bytes.length - 200_000
        const [r1, b1] = await upload(key, id, bytes, 'big.png', 'image/png')
        expectStatus(r1, b1).toBe(413)
        expect(b1.code).toBe('PAYLOAD_TOO_LARGE')
        t.config.mediaMaxBytes = bytes.length - 1
        const [r2, b2] = await upload(key, id, bytes, 'big.png', 'image/png')
        expectStatus(r2, b2).toBe(413)
        expect(b2.details.limit).toBe(bytes.length - 1)
        t.config.mediaMaxBytes = bytes.length
        const [r3, b3] = await upload(key, id, bytes, 'big.png', 'image/png')
        expectStatus(r3, b3).toBe(201)
      } finally {
        t.config.mediaMaxBytes = saved
      }
      // Every other route keeps the 1 MiB limit.
      const [r4, b4] = await t.api.post('/api/v1/products', { name: 'x'.repeat(2 * 1024 * 1024), price: 1 }, { key })
      expect([r4.status, b4.code]).toEqual([413, 'PAYLOAD_TOO_LARGE'])
    },
  )
})

describe('memory', () => {
  test("after an upload, libvips' operation cache holds nothing and may hold nothing (its bound is 0)", async () => {
    const { key, id } = await product()
    const [res, body] = await upload(key, id, await jpeg(1600, 1200))
    expectStatus(res, body).toBe(201)
    // The same module instance the server loaded at the upload: its cache is off.
    const stats = sharp.cache() as unknown as Record<'memory' | 'files' | 'items', { current: number; max: number }>
    expect(stats.memory.max).toBe(0)
    expect(stats.items.max).toBe(0)
    expect(stats.files.max).toBe(0)
    expect(stats.memory.current).toBe(0)
  })
})

describe('ownership and plans', () => {
  test("another store's key → 403 on upload, move and delete; its files stay", async () => {
    const a = await product()
    const b = makeShop(t.deps)
    const [, img] = await upload(a.key, a.id, await jpeg(100, 100))
    const [r1, b1] = await upload(b.key, a.id, await jpeg(100, 100))
    expectStatus(r1, b1).toBe(403)
    const [r2] = await t.api.put(`/api/v1/products/${a.id}/images/${img.data.id}`, { position: 0 }, { key: b.key })
    const [r3] = await t.api.delete(`/api/v1/products/${a.id}/images/${img.data.id}`, { key: b.key })
    expect([r2.status, r3.status]).toEqual([403, 403])
    expect((await media(img.data.url)).status).toBe(200)
    // An image id under the wrong product → 404.
    const other = await t.api.post('/api/v1/products', { name: 'Cup', price: 3 }, { key: a.key })
    const [r4] = await t.api.delete(`/api/v1/products/${other[1].data.id}/images/${img.data.id}`, { key: a.key })
    expect(r4.status).toBe(404)
    // A key without products:write → 403.
    const { makeKey } = await import('../helpers/factories')
    const readOnly = makeKey(t.deps, a.store.id, ['products:read'])
    const [r5] = await upload(readOnly, a.id, await jpeg(100, 100))
    expect(r5.status).toBe(403)
  })

  test('free plan: 3 per product → 403 PLAN_REQUIRED productImages; pro: 10 → 409 LIMIT_REACHED', async () => {
    const free = await product('free')
    const bytes = await jpeg(100, 100)
    for (let i = 0; i < 3; i++) expect((await upload(free.key, free.id, bytes))[0].status).toBe(201)
    const [r1, b1] = await upload(free.key, free.id, bytes)
    expectStatus(r1, b1).toBe(403)
    expect(b1).toMatchObject({ code: 'PLAN_REQUIRED', feature: 'productImages', details: { limit: 3, current: 3 } })
  })

  test(
    '12 concurrent uploads to one pro product → 10 created at positions 0..9, 2 × 409 LIMIT_REACHED, ' +
      'no stray files',
    async () => {
      const { store, key, id } = await product('lifetime')
      const bytes = await jpeg(400, 300)
      const results = await Promise.all(Array.from({ length: 12 }, () => upload(key, id, bytes)))
      const statuses = results.map(([r]) => r.status).sort()
      expect(statuses).toEqual([...Array(10).fill(201), 409, 409])
      expect(
        results
          .filter(([r]) => r.status === 409)
          .every(([, b]) => b.code === 'LIMIT_REACHED' && b.details.limit === 10),
      ).toBe(true)
      const [, got] = await t.api.get(`/api/v1/products/${id}`, { key })
      expect(got.data.images.map((i: Json) => i.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
      expect(readdirSync(path.join(t.config.dataDir, 'media', 'originals', store.id)).length).toBe(10)
    },
  )

  test('5 concurrent uploads on the free plan → exactly 3 created', async () => {
    const { key, id } = await product('free')
    const bytes = await jpeg(200, 200)
    const results = await Promise.all(Array.from({ length: 5 }, () => upload(key, id, bytes)))
    expect(results.map(([r]) => r.status).sort()).toEqual([201, 201, 201, 403, 403])
  })
})

describe('reorder and delete', () => {
  test(
    'PUT moves an image; the first image is the imageUrl unless one is set; ' +
      'DELETE closes up and removes the files',
    async () => {
      const { store, key, id } = await product()
      const ids: string[] = []
      const urls: string[] = []
      for (const w of [100, 110, 120]) {
        const [, b] = await upload(key, id, await jpeg(w, 100))
        ids.push(b.data.id)
        urls.push(b.data.url)
      }
      const [r1, b1] = await t.api.put(`/api/v1/products/${id}/images/${ids[2]}`, { position: 0 }, { key })
      expectStatus(r1, b1).toBe(200)
      expect(b1.data.position).toBe(0)
      let [, got] = await t.api.get(`/api/v1/products/${id}`, { key })
      expect(got.data.images.map((i: Json) => [i.id, i.position])).toEqual([
        [ids[2], 0],
        [ids[0], 1],
        [ids[1], 2],
      ])
      expect(got.data.imageUrl).toBe(urls[2])
      const [r2, b2] = await t.api.put(`/api/v1/products/${id}/images/${ids[2]}`, { position: 3 }, { key })
      expectStatus(r2, b2).toBe(400)
      expect(b2.details).toMatchObject({ field: 'position', reason: 'out_of_range' })

      const [r3, b3] = await t.api.delete(`/api/v1/products/${id}/images/${ids[2]}`, { key })
      expectStatus(r3, b3).toBe(200)
      expect(b3.data).toEqual({ id: ids[2], deleted: true })
      expect((await media(urls[2]!)).status).toBe(404)
      expect(existsSync(path.join(t.config.dataDir, 'media', 'originals', store.id, ids[2]!))).toBe(false)
      ;[, got] = await t.api.get(`/api/v1/products/${id}`, { key })
      expect(got.data.images.map((i: Json) => [i.id, i.position])).toEqual([
        [ids[0], 0],
        [ids[1], 1],
      ])
      const [r4] = await t.api.delete(`/api/v1/products/${id}/images/${ids[2]}`, { key })
      expect(r4.status).toBe(404)

      await t.api.put(`/api/v1/products/${id}`, { imageUrl: 'https://cdn.example.com/v.jpg' }, { key })
      ;[, got] = await t.api.get(`/api/v1/products/${id}`, { key })
      expect(got.data.imageUrl).toBe('https://cdn.example.com/v.jpg')
      expect(got.data.images.length).toBe(2)
    },
  )

  test('the public store read lists images by URL', async () => {
    const { store, key, id } = await product()
    const [, img] = await upload(key, id, await jpeg(100, 100))
    await t.api.put('/api/v1/store', { isPublished: true }, { key })
    const [, body] = await t.api.get(`/api/v1/stores/${store.slug}`)
    const p = body.data.products.find((x: Json) => x.id === id)
    expect(p.images.map((i: Json) => i.url)).toEqual([img.data.url])
  })
})

test('OpenAPI: the upload has a multipart/form-data body with a binary file, products their images', async () => {
  const doc = (await (await t.app.handle(new Request('http://localhost/docs/json'))).json()) as Json
  const upload = doc.paths['/api/v1/products/{id}/images'].post
  expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data'])
  expect(upload.requestBody.content['multipart/form-data'].schema.properties.file).toMatchObject({
    type: 'string',
    format: 'binary',
  })
  expect(Object.keys(doc.paths['/api/v1/products/{id}/images/{imageId}']).sort()).toEqual(['delete', 'put'])
  expect(JSON.stringify(doc.paths['/api/v1/products/{id}'].get.responses['200'])).toContain(
    '"#/components/schemas/Product"',
  )
  expect(doc.components.schemas.Product.properties.images.items).toEqual({
    $ref: '#/components/schemas/ProductImage',
  })
  expect(Object.keys(doc.paths).some((p) => p.startsWith('/media'))).toBe(false)
})

describe('serving', () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startTestServer({ trustProxy: true })
  })
  afterAll(() => srv.stop())

  /** A raw request line, so no client normalises `..` or its encodings away first. */
  async function rawGet(target: string): Promise<string> {
    let text = ''
    const { promise, resolve } = Promise.withResolvers<void>()
    const socket = await Bun.connect({
      hostname: '127.0.0.1',
      port: srv.running.port,
      socket: { data: (_s, d) => void (text += d.toString()), close: () => resolve(), error: () => resolve() },
    })
    socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n\r\n`)
    await promise
    return text.split('\r\n')[0]!
  }

  test('path traversal in media URLs is impossible, encoded or not', async () => {
    const { store, key } = makeShop(srv.running.deps)
    const p = await srv.fetch('/api/v1/products', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ name: 'Pot', price: 5 }),
    })
    const productId = ((await p.json()) as Json).data.id
    const form = new FormData()
    form.append('file', new File([await jpeg(100, 100)], 'a.jpg'))
    const up = await srv.fetch(`/api/v1/products/${productId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'x-forwarded-proto': 'https' },
      body: form,
    })
    expect(up.status).toBe(201)
    const img = ((await up.json()) as Json).data
    expect(await rawGet(img.url)).toBe('HTTP/1.1 200 OK')
    for (const target of [
      '/media/../storefront.db',
      '/media/%2e%2e/storefront.db',
      '/media/%2e%2e%2fstorefront.db',
      '/media/..%2F..%2Fstorefront.db',
      `/media/${store.id}/..%2F..%2F..%2Fstorefront.db`,
      `/media/${store.id}/%2e%2e%2f%2e%2e%2foriginals%2f${store.id}%2f${img.id}`,
      `/media/${store.id}/..%5c..%5cstorefront.db`,
      `/media/originals/${store.id}/${img.id}`,
      `/media/${store.id}/${img.id}-100.webp%00.db`,
      '/media/secret.key',
    ]) {
      expect([target, await rawGet(target)]).toEqual([target, 'HTTP/1.1 404 Not Found'])
    }
  })
})
