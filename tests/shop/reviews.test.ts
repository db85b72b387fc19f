/**
 * Reviews and sharing on the storefront, over HTTP against the real app: the product page lists
 * approved reviews only (newest first, 10 a page, JSON-LD `Review` items, escaped), the no-script
 * "Write a review" form route (same verb, schema and per-IP limit as POST /api/reviews; same
 * origin only), the page cache dropped by moderation and deletion, and the WhatsApp share links.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { readFileSync } from 'node:fs'
import { appForFile, makeApp, expectStatus, type Json } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { makeReview } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { reviews, webhookOutbox, webhooks } from '../../src/db/schema'
import { retryText, WORDS } from '../../src/shop/i18n'
import { REVIEW_COMMENT_MAX } from '../../src/modules/reviews/model'
import { ASSETS } from '../../src/shop/assets'

// Noon UTC: the 24 h review window (whole days from the epoch) ends in 12 hours.
const NOON = Date.UTC(2026, 2, 1, 12)
const clock = fixedClock(NOON)
const ORIGIN = 'https://shop.example'
let ipN = 0
const newIp = () => `198.51.100.${++ipN}`

const t = appForFile(
  {
    trustProxy: true,
    publicUrl: ORIGIN,
    rateLimitKey: 100_000,
    rateLimitAnonymous: 100_000,
    rateLimitStoreReads: 100_000,
  },
  { clock },
)

const PROXY = { 'x-forwarded-proto': 'https' }

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await t.app.handle(
    new Request(`http://localhost${path}`, { headers: { ...PROXY, 'x-forwarded-for': newIp(), ...headers } }),
  )
  return [res, await res.text()] as const
}

/** The form as a browser without script sends it: fields form-encoded, from the shop's own page. */
async function postForm(
  path: string,
  fields: Record<string, string>,
  opts: { ip: string; headers?: Record<string, string> },
) {
  const headers = {
    ...PROXY,
    'x-forwarded-for': opts.ip,
    'content-type': 'application/x-www-form-urlencoded',
    'sec-fetch-site': 'same-origin',
    origin: ORIGIN,
    ...opts.headers,
  }
  for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k as keyof typeof headers]
  const res = await t.app.handle(
    new Request(`http://localhost${path}`, { method: 'POST', headers, body: new URLSearchParams(fields).toString() }),
  )
  return [res, await res.text()] as const
}

/** Follows a 303 the way a browser does (the fragment stays in the browser). */
const follow = (res: Response) => get(res.headers.get('location')!.split('#')[0]!)

const postApi = (body: unknown, ip: string) => t.api.post('/api/reviews', body, { ip, headers: PROXY })

async function shop(input: Parameters<typeof makeShop>[1] = {}) {
  const { store, key } = makeShop(t.deps, input)
  const [res, p] = await t.api.post('/api/v1/products', { name: 'Clay Mug', price: 12.5 }, { key, headers: PROXY })
  expectStatus(res, p).toBe(201)
  const product = p.data as { id: string; slug: string; name: string }
  return { store, key, product, path: `/s/${store.slug}/p/${product.slug}` }
}

const jsonLd = (page: string) => JSON.parse(page.match(/<script type="application\/ld\+json">([^<]*)<\/script>/)![1]!)
/** The shown reviews' names, in page order. */
const shownNames = (page: string) => [...page.matchAll(/<span class="who">([^<]*)<\/span>/g)].map((m) => m[1])
const HOUR = 3_600_000

describe('approved reviews on the product page', () => {
  test(
    'approved only, newest first, 10 a page with plain "More reviews" / "Newer reviews" links; stars, ' +
      'name, date and comment',
    async () => {
      const { store, product, path } = await shop()
      for (let i = 1; i <= 12; i++) {
        makeReview(t.deps, store.id, {
          productId: product.id,
          status: 'approved',
          rating: (i % 5) + 1,
          customerName: `Approved ${i}`,
          comment: `Comment ${i}`,
          createdAt: NOON - (13 - i) * HOUR,
        })
      }
      makeReview(t.deps, store.id, {
        productId: product.id,
        status: 'pending',
        customerName: 'Pending Pat',
        createdAt: NOON,
      })
      makeReview(t.deps, store.id, {
        productId: product.id,
        status: 'rejected',
        customerName: 'Rejected Rob',
        createdAt: NOON,
      })
      t.deps.cache.invalidate(store.id)

      const [res, page1] = await get(path)
      expectStatus(res, page1).toBe(200)
      expect(shownNames(page1)).toEqual([
        'Approved 12',
        'Approved 11',
        'Approved 10',
        'Approved 9',
        'Approved 8',
        'Approved 7',
        'Approved 6',
        'Approved 5',
        'Approved 4',
        'Approved 3',
      ])
      expect(page1).toContain('<h2 id="reviews-h">Reviews</h2>')
      // The newest: rating 3 ((12 % 5) + 1) as stars read "3 out of 5", its date in the store's language, its comment.
      expect(page1).toContain(
        '<span class="stars" role="img" aria-label="3 out of 5">★★★<span class="off">★★</span></span> ' +
          '<span class="who">Approved 12</span> · <time datetime="2026-03-01">March 1, 2026</time>',
      )
      expect(page1).toContain('<p class="comment">Comment 12</p>')
      // The average and count stay.
      expect(page1).toMatch(/Rated [\d.]+ out of 5 · 12 reviews/)
      expect(page1).toContain(`<a href="${path}?reviews=2#reviews" rel="next">More reviews</a>`)
      expect(page1).not.toContain('Newer reviews')
      for (const hidden of ['Pending Pat', 'Rejected Rob']) expect(page1).not.toContain(hidden)
      expect(page1).toContain('<link rel="canonical"')

      const [r2, page2] = await get(`${path}?reviews=2`)
      expectStatus(r2, page2).toBe(200)
      expect(shownNames(page2)).toEqual(['Approved 2', 'Approved 1'])
      expect(page2).toContain(`<a href="${path}#reviews" rel="prev">Newer reviews</a>`)
      expect(page2).not.toContain('More reviews')
      expect(page2).toContain('<meta name="robots" content="noindex">')
      for (const hidden of ['Pending Pat', 'Rejected Rob']) expect(page2).not.toContain(hidden)

      // Past the last page: no such page. Anything that is not a page number is the first page.
      expect((await get(`${path}?reviews=3`))[0].status).toBe(404)
      for (const q of ['?reviews=0', '?reviews=abc', '?reviews=1', '?reviews=-2'])
        expect(shownNames((await get(path + q))[1])[0]).toBe('Approved 12')
    },
  )

  test('JSON-LD: a Review item for each review shown, beside the aggregate rating', async () => {
    const { store, product, path } = await shop()
    makeReview(t.deps, store.id, {
      productId: product.id,
      status: 'approved',
      rating: 4,
      customerName: 'Ana',
      comment: 'Keeps tea hot',
      createdAt: NOON - 2 * HOUR,
    })
    makeReview(t.deps, store.id, {
      productId: product.id,
      status: 'approved',
      rating: 2,
      customerName: 'Bo',
      comment: null,
      createdAt: NOON - HOUR,
    })
    makeReview(t.deps, store.id, { productId: product.id, status: 'pending', customerName: 'Cy', createdAt: NOON })
    t.deps.cache.invalidate(store.id)
    const [, page] = await get(path)
    const ld = jsonLd(page)
    expect(ld.aggregateRating).toMatchObject({ ratingValue: 3, reviewCount: 2 })
    expect(ld.review).toEqual([
      {
        '@type': 'Review',
        author: { '@type': 'Person', name: 'Bo' },
        datePublished: '2026-03-01',
        reviewRating: { '@type': 'Rating', ratingValue: 2, bestRating: 5, worstRating: 1 },
      },
      {
        '@type': 'Review',
        author: { '@type': 'Person', name: 'Ana' },
        datePublished: '2026-03-01',
        reviewBody: 'Keeps tea hot',
        reviewRating: { '@type': 'Rating', ratingValue: 4, bestRating: 5, worstRating: 1 },
      },
    ])
    // A product without approved reviews has no Review items.
    const other = await shop()
    expect(jsonLd((await get(other.path))[1]).review).toBeUndefined()
  })

  test('markup in a name or comment shows as text (page and JSON-LD)', async () => {
    const { store, product, path } = await shop()
    const name = '<script>alert("name")</script>'
    const comment = '</script><img src=x onerror=alert(1)> & "quotes"'
    makeReview(t.deps, store.id, { productId: product.id, status: 'approved', customerName: name, comment })
    t.deps.cache.invalidate(store.id)
    const [, page] = await get(path)
    expect(page).toContain('<span class="who">&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;</span>')
    expect(page).toContain(
      '<p class="comment">&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;</p>',
    )
    expect(page).not.toContain('<script>alert')
    expect(page).not.toContain('<img src=x')
    // Only our own two script elements: the JSON-LD block is closed by its own tag alone.
    expect(page.match(/<\/script>/g)).toHaveLength(3) // shop.js, JSON-LD, the data block
    const ld = jsonLd(page)
    expect(ld.review[0].author.name).toBe(name)
    expect(ld.review[0].reviewBody).toBe(comment)
  })

  test("in the store's language: stars text, date, form labels", async () => {
    const { store, key, product, path } = await shop()
    await t.api.put('/api/v1/store', { language: 'es' }, { key, headers: PROXY })
    makeReview(t.deps, store.id, { productId: product.id, status: 'approved', rating: 4, customerName: 'Lucía' })
    t.deps.cache.invalidate(store.id)
    const [, page] = await get(path)
    expect(page).toContain('aria-label="4 de 5"')
    expect(page).toContain('<time datetime="2026-03-01">1 de marzo de 2026</time>')
    expect(page).toContain('<h2 id="reviews-h">Reseñas</h2>')
    expect(page).toContain('<h2 id="write-h">Escribe una reseña</h2>')
    expect(page).toContain('<label for="rv-name">Tu nombre</label>')
    expect(page).toContain('<legend>Valoración</legend>')
    expect(page).toContain('>Compartir por WhatsApp</a>')
  })
})

describe('"Write a review" form', () => {
  test("labelled fields with the API's limits; the form posts to the page's own route", async () => {
    const { path } = await shop()
    const [, page] = await get(path)
    expect(page).toContain(`<form class="review-form" method="post" action="${path}/reviews"`)
    expect(page).toContain(
      '<label for="rv-name">Your name</label><input id="rv-name" name="customerName" autocomplete="name" ' +
        'required maxlength="100"',
    )
    expect(page).toContain('<legend>Rating</legend>')
    for (const [n, label] of [
      [1, '1 star'],
      [2, '2 stars'],
      [5, '5 stars'],
    ] as const) {
      expect(page).toContain(
        `<label class="opt"><input type="radio" name="rating" value="${n}" required> <span>${label}</span></label>`,
      )
    }
    expect(page).toContain(`<label for="rv-comment">Review</label>`)
    expect(page).toContain(`<textarea id="rv-comment" name="comment" rows="4" maxlength="${REVIEW_COMMENT_MAX}"`)
    expect(page).toContain('Optional, up to 2,000 characters.')
    expect(page).toContain('<button type="submit">Send review</button>')
  })

  test(
    'no script, 201 path: 303 back to the page, which thanks in words; ' +
      'the review is pending in the API with its review.created delivery',
    async () => {
      const { store, key, product, path } = await shop()
      const now = clock.now()
      t.deps.db
        .insert(webhooks)
        .values({
          storeId: store.id,
          url: 'https://hooks.example/x',
          events: JSON.stringify(['review.created']),
          secret: 'x',
          createdAt: now,
          updatedAt: now,
        })
        .run()
      const [res, body] = await postForm(
        `${path}/reviews`,
        { customerName: '  Ana  ', rating: '4', comment: 'Line one\r\nLine two' },
        { ip: newIp() },
      )
      expectStatus(res, body).toBe(303)
      expect(res.headers.get('location')).toBe(`${path}?review=thanks#write-review`)
      expect(res.headers.get('x-ratelimit-limit')).toBe('3')
      expect(res.headers.get('x-ratelimit-remaining')).toBe('2')
      const [back, page] = await follow(res)
      expectStatus(back, page).toBe(200)
      expect(back.headers.get('cache-control')).toBe('no-store')
      expect(page).toContain(
        '<p class="form-ok" role="status" data-review-ok>Thanks — your review will appear once the shop ' +
          'approves it.</p>',
      )
      expect(page).toContain('<meta name="robots" content="noindex">')
      // Pending: not on the page.
      expect(shownNames(page)).toEqual([])

      const [lr, list] = await t.api.get(`/api/v1/reviews?productId=${product.id}`, { key, headers: PROXY })
      expectStatus(lr, list).toBe(200)
      expect(list.data).toEqual([
        expect.objectContaining({
          productId: product.id,
          customerName: 'Ana',
          rating: 4,
          comment: 'Line one\nLine two',
          status: 'pending',
        }),
      ])
      const outbox = t.deps.db.select().from(webhookOutbox).where(eq(webhookOutbox.storeId, store.id)).all()
      expect(outbox.map((o) => o.eventType)).toEqual(['review.created'])
      expect(JSON.parse(outbox[0]!.payload!).data.id).toBe(list.data[0].id)

      // The product page itself stays cacheable and thanks nobody.
      const [plain, plainPage] = await get(path)
      expect(plain.headers.get('cache-control')).toBe('no-cache')
      expect(plainPage).toContain('data-review-ok></p>')
    },
  )

  test('no script, 400 path: the message is by its field, which is marked and focused; nothing written', async () => {
    const { store, path } = await shop()
    const cases: [Record<string, string>, string, string, string][] = [
      [{ customerName: '', rating: '5' }, 'customerName', 'required', 'Enter your name.'],
      [
        { customerName: 'x'.repeat(101), rating: '5' },
        'customerName',
        'out_of_range',
        'Your name can have at most 100 characters.',
      ],
      [{ customerName: 'Ana' }, 'rating', 'required', 'Choose a rating from 1 to 5 stars.'],
      [{ customerName: 'Ana', rating: '7' }, 'rating', 'out_of_range', 'Choose a rating from 1 to 5 stars.'],
      [{ customerName: 'Ana', rating: 'five' }, 'rating', 'invalid_type', 'Choose a rating from 1 to 5 stars.'],
      [
        { customerName: 'Ana', rating: '3', comment: 'x'.repeat(REVIEW_COMMENT_MAX + 1) },
        'comment',
        'out_of_range',
        'Your review can have at most 2,000 characters.',
      ],
    ]
    for (const [fields, field, reason, message] of cases) {
      // A fresh IP each: the limit is not what this test is about.
      const [res, body] = await postForm(`${path}/reviews`, fields, { ip: newIp() })
      expectStatus(res, body).toBe(303)
      // No fragment: it would cancel the autofocus that takes the person to the field.
      expect(res.headers.get('location')).toBe(`${path}?review=invalid&field=${field}&reason=${reason}`)
      const [, page] = await follow(res)
      const id = { customerName: 'rv-name', rating: 'rv-rating', comment: 'rv-comment' }[field]!
      expect(page).toContain(`<span class="err" id="${id}-err" data-err="${field}">${message}</span>`)
      if (field === 'rating')
        expect(page).toContain('<input type="radio" name="rating" value="1" required aria-invalid="true" autofocus>')
      else expect(page).toMatch(new RegExp(`<(input|textarea) id="${id}"[^>]* aria-invalid="true" autofocus>`))
    }
    expect(t.deps.db.select().from(reviews).where(eq(reviews.storeId, store.id)).all()).toEqual([])
    // The outcome is read from the URL: a made-up field or reason is a general message, never an object's own key.
    for (const q of [
      'field=__proto__&reason=toString',
      'field=customerName&reason=constructor',
      'field=storeId&reason=required',
    ]) {
      const [, page] = await get(`${path}?review=invalid&${q}`)
      expect(page).not.toContain('function')
      expect(page).toMatch(/data-review-err>(Something went wrong. Please try again.|)<\/p>/)
    }
  })

  test('429: three reviews a day from one IP across both paths; the fourth is told when, in words', async () => {
    const { store, product, path } = await shop()
    const ip = newIp()
    const json = { storeId: store.id, productId: product.id, customerName: 'Ana', rating: 5 }
    expectStatus(...(await postApi(json, ip))).toBe(201)
    expect(
      (await postForm(`${path}/reviews`, { customerName: 'Ana', rating: '5' }, { ip }))[0].headers.get('location'),
    ).toContain('review=thanks')
    expectStatus(...(await postApi(json, ip))).toBe(201)

    const [res, body] = await postForm(`${path}/reviews`, { customerName: 'Ana', rating: '5' }, { ip })
    expectStatus(res, body).toBe(303)
    const until = Math.ceil(NOON / 1000) + 12 * 3600
    expect(res.headers.get('location')).toBe(`${path}?review=limited&until=${until}#write-review`)
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0')
    const [, page] = await follow(res)
    expect(page).toContain(
      '<p class="form-err" role="alert" data-review-err>You can write another review in about 12 hours.</p>',
    )
    // The JSON route shares the bucket: the fifth is a 429 there too.
    const [r5, b5] = await postApi(json, ip)
    expectStatus(r5, b5).toBe(429)
    expect(r5.headers.get('retry-after')).toBe(String(12 * 3600))
    expect(t.deps.db.select().from(reviews).where(eq(reviews.storeId, store.id)).all()).toHaveLength(3)

    // A reload five hours later says seven: the URL holds when, not how long.
    clock.advance(5 * HOUR)
    try {
      expect((await follow(res))[1]).toContain('You can write another review in about 7 hours.')
    } finally {
      clock.set(NOON)
    }
  })

  test('a cross-site form post is refused with a plain 403 page: nothing written, nothing counted', async () => {
    const { store, path } = await shop()
    const ip = newIp()
    const refused: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: 'https://evil.shop.example' },
      // A browser that doesn't send Sec-Fetch-Site: Origin decides.
      { 'sec-fetch-site': '', origin: 'https://evil.example' },
      { 'sec-fetch-site': '', origin: 'null' },
      // Neither header: not a form on our page.
      { 'sec-fetch-site': '', origin: '' },
    ]
    for (const headers of refused) {
      const [res, page] = await postForm(`${path}/reviews`, { customerName: 'Mallory', rating: '1' }, { ip, headers })
      expectStatus(res, page).toBe(403)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(page).toContain('<h1>Not allowed</h1>')
      expect(res.headers.get('location')).toBeNull()
    }
    expect(t.deps.db.select().from(reviews).where(eq(reviews.storeId, store.id)).all()).toEqual([])
    // Our own origin without Sec-Fetch-Site is accepted, and the budget is whole: three go through.
    for (let i = 0; i < 3; i++) {
      const [res] = await postForm(
        `${path}/reviews`,
        { customerName: 'Ana', rating: '5' },
        { ip, headers: { 'sec-fetch-site': '' } },
      )
      expect(res.headers.get('location')).toContain('review=thanks')
    }
  })

  test('an unknown product or store is a 404 page; an inactive product too', async () => {
    const { store, key, product, path } = await shop()
    expect(
      (await postForm(`/s/${store.slug}/p/nope/reviews`, { customerName: 'Ana', rating: '5' }, { ip: newIp() }))[0]
        .status,
    ).toBe(404)
    expect(
      (await postForm(`/s/no-such-store/p/x/reviews`, { customerName: 'Ana', rating: '5' }, { ip: newIp() }))[0].status,
    ).toBe(404)
    await t.api.put(`/api/v1/products/${product.id}`, { isActive: false }, { key, headers: PROXY })
    const [res, page] = await postForm(`${path}/reviews`, { customerName: 'Ana', rating: '5' }, { ip: newIp() })
    expectStatus(res, page).toBe(404)
    expect(page).toContain('<h1>Page not found</h1>')
  })
})

describe('the page cache', () => {
  test('moderating or deleting a review drops the cached page (the product fragments stay)', async () => {
    const { store, key, product, path } = await shop()
    const [cr, created] = await postApi(
      { storeId: store.id, productId: product.id, customerName: 'Moderated Mo', rating: 5, comment: 'Lovely glaze' },
      newIp(),
    )
    expectStatus(cr, created).toBe(201)
    const [r1, p1] = await get(path)
    expect(shownNames(p1)).toEqual([])
    const etag = r1.headers.get('etag')!
    // Cached: the same validator answers 304.
    expect((await get(path, { 'if-none-match': etag }))[0].status).toBe(304)
    // The public read builds the product fragments; moderation must leave them.
    expectStatus(...(await get(`/api/v1/stores/${store.slug}`))).toBe(200)
    const fragments = t.deps.cache.fragments.size
    expect(fragments).toBeGreaterThan(0)

    const moderate = (status: string) => t.api.put(`/api/v1/reviews/${created.id}`, { status }, { key, headers: PROXY })
    expectStatus(...(await moderate('approved'))).toBe(200)
    const [r2, p2] = await get(path, { 'if-none-match': etag })
    expectStatus(r2, p2).toBe(200)
    expect(shownNames(p2)).toEqual(['Moderated Mo'])
    expect(p2).toContain('Lovely glaze')
    expect(p2).toContain('Rated 5 out of 5 · 1 review')
    expect(t.deps.cache.fragments.size).toBe(fragments)
    const [, storeRead] = await t.api.get(`/api/v1/stores/${store.slug}`, { headers: PROXY })
    expect((storeRead as Json).data.products[0]).toMatchObject({ reviewCount: 1, averageRating: 5 })

    expectStatus(...(await moderate('rejected'))).toBe(200)
    const [, p3] = await get(path)
    expect(shownNames(p3)).toEqual([])
    expect(p3).not.toContain('Lovely glaze')

    expectStatus(...(await moderate('approved'))).toBe(200)
    expect(shownNames((await get(path))[1])).toEqual(['Moderated Mo'])
    const [dr, deleted] = await t.api.delete(`/api/v1/reviews/${created.id}`, { key, headers: PROXY })
    expectStatus(dr, deleted).toBe(200)
    const [, p4] = await get(path)
    expect(shownNames(p4)).toEqual([])
    expect(p4).toContain('No reviews yet')
  })
})

describe('Share on WhatsApp', () => {
  const shareText = (page: string) =>
    decodeURIComponent(
      page.match(/<a class="share" href="https:\/\/wa\.me\/\?text=([^"]+)" rel="noopener">Share on WhatsApp<\/a>/)![1]!,
    )

  test("product page: name, price and the product's absolute URL on PUBLIC_URL; catalog: the store's URL", async () => {
    const { store, path } = await shop({ name: 'Clay & Co' })
    expect(shareText((await get(path))[1])).toBe(`Clay Mug\n$12.50\n${ORIGIN}${path}`)
    expect(shareText((await get(`/s/${store.slug}`))[1])).toBe(`Clay & Co\n${ORIGIN}/s/${store.slug}`)
  })

  test('without PUBLIC_URL, the request origin; "From" a price when options differ', async () => {
    const local = makeApp()
    try {
      const { store, key } = makeShop(local.deps)
      const [, p] = await local.api.post(
        '/api/v1/products',
        {
          name: 'Tee',
          price: 10,
          variants: [
            { name: 'S', price: 10 },
            { name: 'XL', price: 12 },
          ],
        },
        { key },
      )
      const res = await local.app.handle(new Request(`http://127.0.0.1:8080/s/${store.slug}/p/${p.data.slug}`))
      expect(shareText(await res.text())).toBe(
        `Tee\nFrom $10.00\nhttp://127.0.0.1:8080/s/${store.slug}/p/${p.data.slug}`,
      )
    } finally {
      local.close()
    }
  })
})

describe('"about N hours": the page and the script say the same', () => {
  test('retryText rounds as the script does', () => {
    const w = WORDS.en.review
    expect(retryText(w, 5 * 3600)).toBe('You can write another review in about 5 hours.')
    expect(retryText(w, 4 * 3600 + 1790)).toBe('You can write another review in about 5 hours.')
    expect(retryText(w, 3600)).toBe('You can write another review in about an hour.')
    expect(retryText(w, 20 * 60)).toBe('You can write another review in about 20 minutes.')
    expect(retryText(w, 10)).toBe('You can write another review in about a minute.')
    expect(retryText(WORDS.es.review, 5 * 3600)).toBe('Podrás escribir otra reseña en unas 5 horas.')
    // The script's copy of the rounding (shop.js), run on the same words for every minute of a day.
    const js = readFileSync(new URL('../../src/shop/assets/shop.js', import.meta.url), 'utf8')
    const source = js.match(/ {4}function retryText\(seconds\) \{[\s\S]*?\n {4}\}/)![0]
    const scriptRetry = new Function('R', `${source}; return retryText`)(w) as (s: number) => string
    for (let s = 1; s <= 86_400; s += 59) expect(scriptRetry(s)).toBe(retryText(w, s))
  })

  test('the shop script stays small', () => {
    expect(ASSETS['shop.js'].gzip.size + ASSETS['shop.css'].gzip.size).toBeLessThanOrEqual(20 * 1024)
  })
})
