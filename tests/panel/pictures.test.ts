/**
 * The product editor's pictures, variant order and concurrent edits over HTTP, signed in (issue
 * 21): uploads through the API's verb, admission and staging (several files in one form post;
 * the script's one-file JSON post), the API's refusals at the file input in the person's language
 * (not an image, too large, a decompression bomb), reorder, delete with confirmation, a viewer and
 * another store refused, a save based on an older read refused whole, variant order persisted.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile, type Json } from '../helpers/app'
import { makeKey } from '../helpers/factories'
import { bombPng, jpeg, noisyPng, png } from '../helpers/image-fixtures'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { ctxFor } from '../../src/kernel/context'
import { createProduct } from '../../src/modules/products/service'
import { getStore } from '../../src/modules/platform-stores/service'

const client = (headers: Record<string, string> = {}) => new PanelClient((r) => t.app.handle(r), undefined, headers)

const t = appForFile()

async function owner(headers: Record<string, string> = {}) {
  const shop = await makeOwnerShop(t.deps, { plan: 'pro' })
  const b = client(headers)
  await signIn(b, shop.email)
  return { ...shop, b, key: makeKey(t.deps, shop.store.id) }
}

const productOf = (storeId: string, input: Parameters<typeof createProduct>[0]['input']) =>
  createProduct({
    ctx: ctxFor(t.deps, getStore({ ctx: { db: t.deps.db }, input: { id: storeId } })!, { kind: 'cli' }),
    input,
  })
const apiProduct = async (id: string, key: string): Promise<Json> =>
  (await t.api.get(`/api/v1/products/${id}`, { key }))[1].data
const pictures = (id: string) => `/admin/products/${id}/pictures`

/** A product with `n` pictures uploaded over the API; their ids in order. */
async function withPictures(storeId: string, key: string, n: number) {
  const p = productOf(storeId, { name: 'Vase', price: 30 })
  for (let i = 0; i < n; i++) {
    const form = new FormData()
    form.append('file', new File([await jpeg(200 + i, 100)], `p${i}.jpg`, { type: 'image/jpeg' }))
    const res = await t.app.handle(
      new Request(`http://localhost/api/v1/products/${p.id}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      }),
    )
    expect(res.status).toBe(201)
  }
  return { id: p.id, images: ((await apiProduct(p.id, key)).images as Json[]).map((i) => i.id as string) }
}

describe('uploading pictures', () => {
  test('several files in one post (no script) → 303 to the pictures; API and editor show them in order', async () => {
    const { b, store, key } = await owner()
    const p = productOf(store.id, { name: 'Mug', price: 5 })
    await b.get(`/admin/products/${p.id}`)
    const res = await b.upload(pictures(p.id), [
      { name: 'front.jpg', bytes: await jpeg(640, 480) },
      { name: 'side.png', bytes: await png(300, 200), type: 'image/png' },
    ])
    expect(res.status).toBe(303)
    expect(res.location).toBe(`/admin/products/${p.id}?added=2#pictures`)
    const images = (await apiProduct(p.id, key)).images as Json[]
    expect(images.map((i) => [i.width, i.position])).toEqual([
      [640, 0],
      [300, 1],
    ])
    const page = await b.get(res.location!.replace(/#.*/, ''))
    expect(page.text).toContain('2 pictures added.')
    expect(page.text).toContain(`src="${images[0].sizes[0].url}"`)
    expect(page.text).toContain('Picture 1 of 2')
    expect(page.text).toContain('aria-label="Move later, picture 1"')
    expect(page.text).toContain('type="file" multiple accept="image/jpeg,image/png,image/webp"')
    // Signed-in pages carry a description and no noindex (no crawler has a session); the sign-in page keeps noindex.
    expect(page.text).toContain('<meta name="description" content="Edit Mug · ')
    expect(page.text).not.toContain('noindex')
    expect((await client().get('/admin/login')).text).toContain('<meta name="robots" content="noindex">')
    // The thumbnail is served by the media route.
    expect((await t.app.handle(new Request(`http://localhost${images[0].sizes[0].url}`))).status).toBe(200)
  })

  test(
    'not an image, a decompression bomb: the API refusals at the file input, by file name, in Spanish; ' +
      'the good file is kept',
    async () => {
      const { b, store, key } = await owner({ 'accept-language': 'es' })
      const p = productOf(store.id, { name: 'Taza', price: 5 })
      await b.get(`/admin/products/${p.id}`)
      const res = await b.upload(pictures(p.id), [
        { name: 'notes.jpg', bytes: '<html>not a picture</html>' },
        { name: 'ok.jpg', bytes: await jpeg(100, 100) },
        { name: 'bomb.png', bytes: await bombPng(), type: 'image/png' },
      ])
      expect(res.status).toBe(400)
      expect(res.text).toContain('notes.jpg: Este archivo no es una foto JPEG, PNG o WebP.')
      expect(res.text).toContain('bomb.png: Esta foto tiene demasiados píxeles; se aceptan hasta 40 megapíxeles.')
      expect(res.text).toContain('Foto agregada.')
      expect(res.text).toMatch(
        new RegExp(
          'id="file" name="file" type="file" multiple accept="[^"]+" ' +
            'aria-describedby="file-hint file-error" aria-invalid="true"',
        ),
      )
      expect((await apiProduct(p.id, key)).images).toHaveLength(1)
    },
  )

  test('too large (over MEDIA_MAX_BYTES): 413 at the file, from the form and from the script', async () => {
    const { b, store, key } = await owner()
    const p = productOf(store.id, { name: 'Rug', price: 50 })
    const bytes = await noisyPng(300, 300)
    const saved = t.config.mediaMaxBytes
    try {
      t.config.mediaMaxBytes = bytes.length - 1
      await b.get(`/admin/products/${p.id}`)
      const res = await b.upload(pictures(p.id), [{ name: 'huge.png', bytes, type: 'image/png' }])
      expect(res.status).toBe(413)
      expect(res.text).toContain('huge.png: This file is too large; at most 0 MB per picture.')
      const js = await b.upload(pictures(p.id), [{ name: 'huge.png', bytes, type: 'image/png' }], { json: true })
      expect(js.status).toBe(413)
      expect(js.json).toMatchObject({
        ok: false,
        error: 'huge.png: This file is too large; at most 0 MB per picture.',
        count: 0,
      })
    } finally {
      t.config.mediaMaxBytes = saved
    }
    expect((await apiProduct(p.id, key)).images).toHaveLength(0)
  })

  test("the script's one-file post (token in x-form-token) → 201 JSON with the list's fragment", async () => {
    const { b, store, key } = await owner()
    const p = productOf(store.id, { name: 'Lamp', price: 20 })
    await b.get(`/admin/products/${p.id}`)
    const res = await b.upload(pictures(p.id), [{ name: 'a.jpg', bytes: await jpeg(120, 90) }], { json: true })
    expect(res.status).toBe(201)
    const [img] = (await apiProduct(p.id, key)).images as Json[]
    expect(res.json).toMatchObject({ ok: true, count: 1, announce: 'Picture added.' })
    expect(res.json.html).toContain(`id="picture-${img.id}"`)
    // An empty pick is the API's "required", said as a sentence.
    await b.get(`/admin/products/${p.id}`)
    const none = await b.upload(pictures(p.id), [])
    expect(none.status).toBe(400)
    expect(none.text).toContain('Pick at least one picture.')
  })

  test(
    "without the form token nothing is stored (403); with the store's uploads all in flight → 429 with " +
      'Retry-After',
    async () => {
      const { b, store, key } = await owner()
      const p = productOf(store.id, { name: 'Bowl', price: 8 })
      await b.get(`/admin/products/${p.id}`)
      expect(
        (await b.upload(pictures(p.id), [{ name: 'a.jpg', bytes: await jpeg(100, 100) }], { token: null })).status,
      ).toBe(403)
      expect(
        (await b.upload(pictures(p.id), [{ name: 'a.jpg', bytes: await jpeg(100, 100) }], { token: 'forged' })).status,
      ).toBe(403)
      const places = [t.deps.uploads.admit(store.id), t.deps.uploads.admit(store.id)]
      try {
        const busy = await b.upload(pictures(p.id), [{ name: 'a.jpg', bytes: await jpeg(100, 100) }])
        expect(busy.status).toBe(429)
        expect(busy.res.headers.get('retry-after')).toBe('1')
        expect(busy.text).toContain('Other pictures of this store are still uploading.')
      } finally {
        for (const release of places) release()
      }
      expect((await apiProduct(p.id, key)).images).toHaveLength(0)
    },
  )
})

describe('reordering and deleting pictures', () => {
  test('"Move later" (form) and "Move earlier" (script) call moveImage; the API sees the order', async () => {
    const { b, store, key } = await owner()
    const {
      id,
      images: [a, bb, c],
    } = await withPictures(store.id, key, 3)
    await b.get(`/admin/products/${id}`)
    const res = await b.submit(`${pictures(id)}/${a}/move`, { position: '1' })
    expect(res.status).toBe(303)
    expect(res.location).toBe(`/admin/products/${id}?done=moved&to=2&of=3#picture-${a}`)
    expect(((await apiProduct(id, key)).images as Json[]).map((i) => i.id)).toEqual([bb, a, c])
    expect((await b.get(res.location!.replace(/#.*/, ''))).text).toContain('Picture moved to position 2 of 3.')
    const js = await b.postJson(`${pictures(id)}/${c}/move`, {}, {})
    expect(js.status).toBe(400) // a JSON body is not the form's: the position is missing
    const moved = await b.request('POST', `${pictures(id)}/${c}/move`, {
      body: new URLSearchParams({ position: '0' }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        origin: b.origin,
        'x-form-token': b.formToken()!,
      },
    })
    expect(moved.status).toBe(200)
    expect(JSON.parse(moved.text)).toMatchObject({ ok: true, announce: 'Picture moved to position 1 of 3.', count: 3 })
    expect(((await apiProduct(id, key)).images as Json[]).map((i) => i.id)).toEqual([c, bb, a])
    // Out of range (a stale page): the API's refusal, nothing moved.
    await b.get(`/admin/products/${id}`)
    expect((await b.submit(`${pictures(id)}/${a}/move`, { position: '7' })).status).toBe(400)
    expect(((await apiProduct(id, key)).images as Json[]).map((i) => i.id)).toEqual([c, bb, a])
  })

  test('delete asks first, then deleteImage: the API lists one picture fewer and its file answers 404', async () => {
    const { b, store, key } = await owner()
    const {
      id,
      images: [a, bb],
    } = await withPictures(store.id, key, 2)
    const url = ((await apiProduct(id, key)).images as Json[])[0].url
    const confirm = await b.get(`${pictures(id)}/${a}/delete`)
    expect(confirm.status).toBe(200)
    expect(confirm.text).toContain('Delete picture 1?')
    const res = await b.submit(`${pictures(id)}/${a}/delete`)
    expect(res.status).toBe(303)
    expect(res.location).toBe(`/admin/products/${id}?done=picture-deleted#pictures`)
    expect(((await apiProduct(id, key)).images as Json[]).map((i) => i.id)).toEqual([bb])
    expect((await t.app.handle(new Request(`http://localhost${url}`))).status).toBe(404)
    expect((await b.get(`${pictures(id)}/${a}/delete`)).status).toBe(404)
  })
})

describe('who may change pictures', () => {
  test('a viewer is refused on every picture POST (and the delete page); nothing changes', async () => {
    const { store, key } = await owner()
    const {
      id,
      images: [a],
    } = await withPictures(store.id, key, 2)
    const viewer = await makeMember(t.deps, store.id, 'viewer')
    const v = client()
    await signIn(v, viewer.email)
    const page = await v.get(`/admin/products/${id}`)
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('Move later')
    expect(page.text).not.toContain('type="file"')
    expect((await v.upload(pictures(id), [{ name: 'a.jpg', bytes: await jpeg(100, 100) }])).status).toBe(403)
    expect((await v.submit(`${pictures(id)}/${a}/move`, { position: '1' })).status).toBe(403)
    expect((await v.get(`${pictures(id)}/${a}/delete`)).status).toBe(403)
    expect((await v.submit(`${pictures(id)}/${a}/delete`)).status).toBe(403)
    expect(((await apiProduct(id, key)).images as Json[])[0].id).toBe(a)
    expect((await apiProduct(id, key)).images).toHaveLength(2)
  })

  test("another store's product: upload, move and delete are 403 pages; its pictures stay", async () => {
    const mine = await owner()
    const theirs = await owner()
    const {
      id,
      images: [a],
    } = await withPictures(theirs.store.id, theirs.key, 2)
    await mine.b.get('/admin/products')
    expect((await mine.b.upload(pictures(id), [{ name: 'a.jpg', bytes: await jpeg(100, 100) }])).status).toBe(403)
    expect((await mine.b.submit(`${pictures(id)}/${a}/move`, { position: '1' })).status).toBe(403)
    expect((await mine.b.submit(`${pictures(id)}/${a}/delete`)).status).toBe(403)
    const after = (await apiProduct(id, theirs.key)).images as Json[]
    expect(after.map((i) => i.id)[0]).toBe(a)
    expect(after).toHaveLength(2)
  })
})

describe('variant order and concurrent edits', () => {
  const fieldsOf = (text: string) => {
    const out: Record<string, string> = {}
    for (const m of text.matchAll(
      /<input(?=[^>]*name="([^"]+)")(?=[^>]*value="([^"]*)")(?![^>]*type="checkbox")[^>]*>/g,
    ))
      out[m[1]!] = m[2]!.replaceAll('&amp;', '&')
    for (const m of text.matchAll(/<input[^>]*name="([^"]+)"[^>]*type="checkbox"[^>]*checked/g)) out[m[1]!] = '1'
    delete out._csrf
    delete out.file
    return out
  }

  test('"Move down" shows the rows swapped; saving keeps the order, seen over GET /api/v1/products/:id', async () => {
    const { b, store, key } = await owner()
    const p = productOf(store.id, {
      name: 'Shirt',
      price: 20,
      variants: [
        { name: 'S', price: 20, stock: 1 },
        { name: 'M', price: 20, stock: 2 },
        { name: 'L', price: 22, stock: 3 },
      ],
    })
    const page = await b.get(`/admin/products/${p.id}`)
    expect(page.text).toContain('aria-label="Move down, variant 1"')
    expect(page.text).not.toContain('aria-label="Move up, variant 1"')
    const moved = await b.submit(`/admin/products/${p.id}`, { ...fieldsOf(page.text), _action: 'down-0' })
    expect(moved.status).toBe(200)
    const rows = fieldsOf(moved.text)
    expect([rows['v0-name'], rows['v1-name'], rows['v2-name']]).toEqual(['M', 'S', 'L'])
    expect((await apiProduct(p.id, key)).variants.map((v: Json) => v.name)).toEqual(['S', 'M', 'L'])
    const up = await b.submit(`/admin/products/${p.id}`, { ...rows, _action: 'up-2' })
    const saved = await b.submit(`/admin/products/${p.id}`, { ...fieldsOf(up.text), _action: 'save' })
    expect(saved.status).toBe(303)
    expect((await apiProduct(p.id, key)).variants.map((v: Json) => [v.name, v.stock])).toEqual([
      ['M', 2],
      ['L', 3],
      ['S', 1],
    ])
  })

  test(
    "a save from a tab opened before another tab's save is refused whole (409): the message, " +
      "the person's values, a link to the current version; the other save's variant stays",
    async () => {
      const { b, store, key } = await owner()
      const p = productOf(store.id, { name: 'Cap', price: 9, variants: [{ name: 'Red', price: 9, stock: 4 }] })
      const tabA = fieldsOf((await b.get(`/admin/products/${p.id}`)).text)
      const tabB = fieldsOf((await b.get(`/admin/products/${p.id}`)).text)
      expect(tabA.updatedAt).toMatch(/^\d+$/)
      // Tab A adds a variant and saves.
      const a = await b.submit(`/admin/products/${p.id}`, {
        ...tabA,
        variantCount: '2',
        'v1-name': 'Blue',
        'v1-price': '9',
        'v1-stock': '5',
        'v1-isActive': '1',
      })
      expect(a.status).toBe(303)
      // Tab B, opened before, renames and saves without Blue.
      await b.get('/admin/products')
      const later = await b.submit(`/admin/products/${p.id}`, { ...tabB, name: 'Cap (new)' })
      expect(later.status).toBe(409)
      expect(later.text).toContain('This product changed since you opened it')
      expect(later.text).toContain(`href="/admin/products/${p.id}">Open the current version</a>`)
      expect(later.text).toContain('value="Cap (new)"')
      const now = await apiProduct(p.id, key)
      expect(now.name).toBe('Cap')
      expect(now.variants.map((v: Json) => v.name)).toEqual(['Red', 'Blue'])
      // Saving again from the re-shown form is refused again; from the current version it applies.
      expect((await b.submit(`/admin/products/${p.id}`, { ...fieldsOf(later.text), name: 'Cap (new)' })).status).toBe(
        409,
      )
      const fresh = fieldsOf((await b.get(`/admin/products/${p.id}`)).text)
      expect(fresh.name).toBe('Cap')
      expect((await b.submit(`/admin/products/${p.id}`, { ...fresh, name: 'Cap (new)' })).status).toBe(303)
      expect((await apiProduct(p.id, key)).variants.map((v: Json) => v.name)).toEqual(['Red', 'Blue'])
    },
  )

  test('two saves in the same millisecond still get different updatedAt values (a fixed clock)', async () => {
    const { store } = await owner()
    const p = productOf(store.id, { name: 'Pen', price: 2 })
    const ctx = ctxFor(t.deps, getStore({ ctx: { db: t.deps.db }, input: { id: store.id } })!, { kind: 'cli' })
    const { updateProduct } = await import('../../src/modules/products/service')
    const first = updateProduct({
      ctx: { ...ctx, clock: { now: () => Date.parse(p.updatedAt) } },
      input: { id: p.id, name: 'Pen 2', ifUpdatedAt: Date.parse(p.updatedAt) },
    })
    expect(Date.parse(first.updatedAt)).toBeGreaterThan(Date.parse(p.updatedAt))
    expect(() =>
      updateProduct({ ctx, input: { id: p.id, name: 'Pen 3', ifUpdatedAt: Date.parse(p.updatedAt) } }),
    ).toThrow('changed since it was read')
  })
})
