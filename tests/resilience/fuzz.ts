/**
 * Fuzzing with fast-check. The endpoint list comes from the app itself (`app.routes`): every
 * POST and PUT under /api gets arbitrary bodies, every GET under /api arbitrary query strings,
 * all with a valid key of a pro store (public endpoints without one). Path parameters are real
 * ids of the store, ids of other resources, or junk.
 *
 * Bodies: a valid body with one field replaced, removed or added (so the fuzz reaches past the
 * first check), wholly arbitrary JSON, and raw text — duplicate keys, deep nesting, truncated
 * JSON, NaN/Infinity literals, a BOM, other content types. Values: wrong types, huge and
 * unicode strings (lone surrogates, NUL, RTL marks), nested junk, boundary numbers (±0, 1e308,
 * -1, 2^53+1, 5e-324, "NaN", "Infinity").
 *
 * Properties, per request: never a 5xx; a non-2xx body has the spec's error shape (lib.ts); a
 * rejected request (and any GET) leaves the row count of every table unchanged (except the
 * written-behind rate_limits and the catalog visit tables).
 */
import { drainOutbox } from '../helpers/outbox'
import fc from 'fast-check'
import { makeApp, type TestApp } from '../helpers/app'
import { makeKey, makeShop, uniq } from '../helpers/factories'
import { addDiscount, makeCatalog, orderBody, placeOrder } from '../helpers/factories'
import { makeReview } from '../helpers/factories'
import { ctxFor } from '../../src/kernel/context'
import { createCategory } from '../../src/modules/categories/service'
import { createWebhook } from '../../src/modules/webhooks/service'
import { startReceiver } from '../helpers/webhook-receiver'
import { diffCounts, errorShapeProblem, fail, newResult, rowCounter, timed, type CaseResult } from './lib'

export interface FuzzOptions {
  /** Runs per endpoint (each run is one request). */
  runsPerRoute: number
  seed?: number
  log?: (line: string) => void
}

// ---------- values ----------

const HUGE = 'x'.repeat(100_000)
const surrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c))

const boundaryNumbers = fc.constantFrom(
  0,
  -0,
  1,
  -1,
  0.5,
  1.005,
  1e308,
  -1e308,
  2 ** 53 + 1,
  -(2 ** 53 + 1),
  Number.MAX_SAFE_INTEGER,
  5e-324,
  1e21,
  100,
  101,
  1e12 + 1,
  65536,
  2 ** 31,
  -(2 ** 31) - 1,
)
const specialStrings = fc.constantFrom(
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e308',
  '-1',
  '0',
  '2e53',
  '9007199254740993',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uDBFF',
  '\u202Eevil',
  '\uFEFF',
  '🙂🙂',
  'Ñandú',
  "' OR 1=1 --",
  '"; DROP TABLE orders; --',
  '<script>alert(1)</script>',
  '%00',
  '../../etc/passwd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as a literal string
  '${7*7}',
  '__proto__',
  'constructor',
  '+14155550100',
  '2024-02-30T25:61:00Z',
  '1970-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  'http://127.0.0.1/',
  `https://example.com/${'a'.repeat(3000)}`,
  HUGE,
  'é'.repeat(5000),
)
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(null, true, false), weight: 2 },
  { arbitrary: boundaryNumbers, weight: 3 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: specialStrings, weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.array(surrogate, { minLength: 1, maxLength: 3 }).map((a) => a.join('')), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 1 },
)
const keyName = fc.oneof(
  fc.constantFrom(
    'name',
    'price',
    'id',
    'storeId',
    'items',
    'variants',
    'status',
    'slug',
    'code',
    'value',
    '__proto__',
    'constructor',
    '',
    '\u0000',
  ),
  fc.string({ maxLength: 12 }),
)
const { junk } = fc.letrec<{ junk: unknown }>((tie) => ({
  junk: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('junk'), { maxLength: 4 }),
    fc.dictionary(keyName, tie('junk'), { maxKeys: 4 }),
  ),
}))

// ---------- bodies ----------

interface Body {
  /** Raw text sent as the body (undefined: no body). */
  text: string | undefined
  contentType: string | undefined
  label: string
}

type JsonObject = Record<string, unknown>

function pathsOf(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(v)) return [prefix, ...v.flatMap((x, i) => pathsOf(x, [...prefix, i]))]
  if (v && typeof v === 'object') return [prefix, ...Object.entries(v).flatMap(([k, x]) => pathsOf(x, [...prefix, k]))]
  return [prefix]
}

export function setAt(root: unknown, path: (string | number)[], value: unknown, remove: boolean): unknown {
  if (path.length === 0) return remove ? undefined : value
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) }
  const [head, ...rest] = path
  if (rest.length === 0) {
    if (remove) Array.isArray(copy) ? copy.splice(head as number, 1) : delete copy[head as string]
    // A named key on an array never reaches JSON (and "length" would throw): append the value instead.
    else if (Array.isArray(copy) && typeof head !== 'number') copy.push(value)
    else copy[head as string] = value
    return copy
  }
  copy[head as string] = setAt(copy[head as string], rest, value, remove)
  return copy
}

const json = (label: string, v: unknown, contentType = 'application/json'): Body => ({
  text: JSON.stringify(v),
  contentType,
  label,
})

function bodyArb(seed: fc.Arbitrary<JsonObject>): fc.Arbitrary<Body> {
  const mutated = fc
    .tuple(seed, fc.nat(), fc.constantFrom('replace', 'remove', 'add'), junk, keyName)
    .map(([s, pick, op, value, key]): Body => {
      const paths = pathsOf(s).filter((p) => p.length > 0)
      const path = paths[pick % Math.max(1, paths.length)] ?? []
      if (op === 'add') return json(`add ${key}`, setAt(s, [...path.slice(0, -1), key], value, false))
      return json(`${op} ${path.join('.')}`, setAt(s, path, value, op === 'remove') ?? {})
    })
  const raw = fc.oneof(
    // Duplicate keys: the later one wins in JSON.parse, so junk goes last (or first).
    fc.tuple(seed, keyName, junk, fc.boolean()).map(([s, k, v, last]): Body => {
      const inner = JSON.stringify(s).slice(1, -1)
      const dup = `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`
      return {
        text: last ? `{${inner}${inner ? ',' : ''}${dup}}` : `{${dup}${inner ? ',' : ''}${inner}}`,
        contentType: 'application/json',
        label: 'duplicate key',
      }
    }),
    fc.constantFrom(10, 1000, 100_000).map(
      (d): Body => ({
        text: '['.repeat(d) + ']'.repeat(d),
        contentType: 'application/json',
        label: `nested arrays ${d}`,
      }),
    ),
    fc.constantFrom(10, 1000, 50_000).map(
      (d): Body => ({
        text: `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`,
        contentType: 'application/json',
        label: `nested objects ${d}`,
      }),
    ),
    seed.map(
      (s): Body => ({ text: JSON.stringify(s).slice(0, -1), contentType: 'application/json', label: 'truncated' }),
    ),
    seed.map((s): Body => ({ text: `\uFEFF${JSON.stringify(s)}`, contentType: 'application/json', label: 'BOM' })),
    fc
      .constantFrom(
        'NaN',
        'Infinity',
        '-Infinity',
        '{"price": NaN}',
        '{"price": Infinity}',
        '{"price": 1e400}',
        '{"price": -0}',
        '{"a":1}garbage',
        "{'a':1}",
        '',
        ' ',
        'null',
        'true',
        '0',
        '"x"',
        '[]',
        '[{}]',
      )
      .map((text): Body => ({ text, contentType: 'application/json', label: `raw ${text}` })),
    fc
      .tuple(
        seed,
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
          'application/xml',
          'application/octet-stream',
        ),
      )
      .map(
        ([s, ct]): Body => ({
          text: ct.startsWith('application/x-www') ? 'name=a&price=NaN&items[0]=x' : JSON.stringify(s),
          contentType: ct,
          label: `content-type ${ct}`,
        }),
      ),
    fc.constant<Body>({ text: undefined, contentType: undefined, label: 'no body' }),
    fc.constant<Body>({ text: undefined, contentType: 'application/json', label: 'empty json body' }),
  )
  return fc.oneof(
    { arbitrary: mutated, weight: 6 },
    { arbitrary: junk.map((v) => json('arbitrary json', v)), weight: 2 },
    { arbitrary: fc.array(seed, { maxLength: 2 }).map((v) => json('array instead of object', v)), weight: 1 },
    { arbitrary: raw, weight: 2 },
  )
}

// ---------- query strings ----------

const QUERY_KEYS = [
  'limit',
  'offset',
  'status',
  'createdSince',
  'updatedSince',
  'isActive',
  'q',
  'slug',
  'productId',
  'from',
  'to',
  'categoryId',
]
const queryValue = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1',
    '100',
    '101',
    '1e308',
    '-0',
    '1.5',
    'NaN',
    'Infinity',
    '9007199254740993',
    '',
    'true',
    'all',
    'pending',
    'approved',
    '2024-01-01',
    'not-a-date',
    '%',
    '%ZZ',
    '%00',
    '%F0%9F',
    '%ED%A0%80',
    '\u0000',
    '\uD800',
    'a'.repeat(5000),
  ),
  fc.string({ unit: 'binary', maxLength: 20 }),
)
const queryArb = fc
  .array(
    fc.tuple(
      fc.oneof(
        { arbitrary: fc.constantFrom(...QUERY_KEYS), weight: 4 },
        { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
      ),
      queryValue,
      fc.boolean(),
    ),
    { maxLength: 5 },
  )
  .map((pairs) =>
    pairs
      // Some values go in raw (a lone '%', '&' or '#' is the point), the rest percent-encoded.
      .map(([k, v, raw]) => {
        const value = raw ? v.replace(/[#\s]/g, '') : encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))
        return `${encodeURIComponent(k)}=${value}`
      })
      .join('&'),
  )

/** Idempotency-Key values for POST /api/orders: none, valid, empty, too long, odd but legal header bytes. */
const idempotencyArb = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  {
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'k',
      'a'.repeat(255),
      'a'.repeat(256),
      'a'.repeat(10_000),
      'clé',
      '\t',
      'same-key',
    ),
    weight: 2,
  },
  {
    arbitrary: fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      maxLength: 300,
    }),
    weight: 2,
  },
)

// ---------- the run ----------

interface Route {
  method: string
  path: string
}

export async function runFuzz(opts: FuzzOptions): Promise<CaseResult> {
  const r = newResult(`fuzz (${opts.runsPerRoute} runs × route)`)
  const log = opts.log ?? (() => {})
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31)
  r.notes.push(`seed ${seed}`)
  const receiver = startReceiver()
  const big = 1_000_000
  const t: TestApp = makeApp({
    rateLimitKey: big,
    rateLimitOrders: big,
    rateLimitReviews: big,
    rateLimitCheckSlug: big,
    rateLimitStoreReads: big,
    rateLimitAnonymous: big,
    webhookAllowPrivate: true,
    webhookTimeoutMs: 1000,
  })

  await timed(r, async () => {
    const deps = t.deps
    const { store, key } = makeShop(deps, { plan: 'pro' })
    const ctx = ctxFor(deps, store)
    const cat = makeCatalog(deps, store.id)
    const category = createCategory({ ctx, input: { name: uniq('Category') } })
    const discount = addDiscount(deps, store.id, { code: 'FUZZ10' })
    const review = makeReview(deps, store.id, { productId: cat.mug.id })
    const hook = await createWebhook({
      ctx,
      input: { url: receiver.url, events: ['order.created', 'order.updated', 'review.created'] },
    })
    const order = placeOrder(deps, orderBody(store.id, cat)).body.id
    const customer = deps.db.$client
      .query<{ customer_id: string }, [string]>('SELECT customer_id FROM orders WHERE id = ?')
      .get(order)!.customer_id
    // the delivery log's ids exist once the outbox is moved (the dispatcher moves it; GET …/deliveries only reads)
    drainOutbox(deps.db.$client)
    const delivery = deps.db.$client
      .query<{ id: string }, [string]>('SELECT id FROM webhook_deliveries WHERE webhook_id = ?')
      .get(hook.id)!.id
    // A second store's ids, to be used as path parameters too.
    const other = makeShop(deps, { plan: 'pro' })
    const otherCat = makeCatalog(deps, other.store.id)
    void makeKey

    const ids: Record<string, string> = {
      products: cat.mug.id,
      categories: category.id,
      discounts: discount.id,
      shipping: cat.courier.id,
      orders: order,
      customers: customer,
      reviews: review.id,
      webhooks: hook.id,
      stores: store.slug,
    }
    const anyIds = [...Object.values(ids), cat.large.id, otherCat.mug.id, otherCat.courier.id, delivery]
    const idArb = (resource: string) =>
      fc.oneof(
        { arbitrary: fc.constant(ids[resource] ?? order), weight: 4 },
        { arbitrary: fc.constantFrom(...anyIds), weight: 1 },
        {
          arbitrary: fc
            .oneof(specialStrings, fc.string({ unit: 'binary', maxLength: 80 }))
            .map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '\uFFFD')) || 'x'),
          weight: 1,
        },
      )
    const deliveryArb = fc.oneof(
      { arbitrary: fc.constant(delivery), weight: 3 },
      { arbitrary: fc.string({ maxLength: 100 }).map((s) => encodeURIComponent(s) || 'x'), weight: 1 },
    )

    const phone = fc.integer({ min: 2_000_000, max: 8_999_999 }).map((n) => `+1415${n}`)
    const seeds: Record<string, fc.Arbitrary<JsonObject>> = {
      'POST /api/orders': phone.map((p) => ({
        storeId: store.id,
        name: 'Ana',
        phone: p,
        address: 'Calle 1',
        items: [
          { variantId: cat.large.id, quantity: 2 },
          { productId: cat.mug.id, quantity: 1 },
        ],
        notes: 'hi',
        shippingOptionId: cat.courier.id,
        discountCode: 'FUZZ10',
      })),
      'POST /api/reviews': fc.constant({
        storeId: store.id,
        productId: cat.mug.id,
        customerName: 'Ana',
        rating: 5,
        comment: 'Nice',
      }),
      'POST /api/billing/events': fc.constant({ id: 'evt_1', type: 'invoice.paid', storeId: store.id }),
      'POST /api/v1/products': fc.nat().map((n) => ({
        name: `P ${n}`,
        price: 10,
        comparePrice: 12,
        description: 'd',
        imageUrl: 'https://example.com/a.png',
        isActive: true,
        categoryId: category.id,
        variants: [{ name: 'S', price: 10, isActive: true }],
      })),
      'PUT /api/v1/products/:id': fc.constant({
        name: 'Renamed',
        price: 11,
        variants: [{ name: 'M', price: 11 }],
        categoryId: category.id,
      }),
      'POST /api/v1/categories': fc.nat().map((n) => ({ name: `C ${n}`, position: 1, isActive: true })),
      'PUT /api/v1/categories/:id': fc.constant({ name: 'Cat 2', position: 2, isActive: true }),
      'PUT /api/v1/store': fc.constant({
        name: 'Shop',
        description: 'Hello',
        whatsappNumber: '+14155550100',
        whatsappTemplate: 'Hola {nombre}',
        isPublished: true,
        isMaintenance: false,
      }),
      'POST /api/v1/discounts': fc.nat().map((n) => ({
        code: `C${n}`,
        type: 'percentage',
        value: 10,
        minOrderAmount: 5,
        maxUses: 3,
        expiresAt: '2099-01-01T00:00:00.000Z',
        isActive: true,
      })),
      'PUT /api/v1/discounts/:id': fc.constant({ value: 15, type: 'fixed', maxUses: 10 }),
      'POST /api/v1/shipping': fc.constant({
        name: 'Courier',
        price: 5,
        description: 'd',
        estimatedDays: 3,
        isActive: true,
      }),
      'PUT /api/v1/shipping/:id': fc.constant({ price: 6, estimatedDays: 2 }),
      'PUT /api/v1/orders/:id/status': fc.constant({ status: 'confirmed' }),
      'PUT /api/v1/orders/:id': fc.constant({ status: 'cancelled' }),
      'PUT /api/v1/reviews/:id': fc.constant({ status: 'approved' }),
      'PUT /api/v1/reviews/:id/moderate': fc.constant({ status: 'rejected' }),
      'POST /api/v1/webhooks': fc.constant({ url: receiver.url, events: ['order.created'], isActive: true }),
      'PUT /api/v1/webhooks/:id': fc.constant({ url: receiver.url, events: ['order.updated'], isActive: true }),
    }

    const routes: Route[] = t.app.routes
      .filter((rt) => rt.path.startsWith('/api') && ['GET', 'POST', 'PUT'].includes(rt.method))
      .map((rt) => ({ method: rt.method, path: rt.path.replace(/\/$/, '') }))
    const counts = rowCounter(deps.db.$client)

    for (const route of routes) {
      const name = `${route.method} ${route.path}`
      const resource = route.path.split('/')[3] ?? ''
      const pathArb = fc
        .tuple(idArb(resource), deliveryArb)
        .map(([id, d]) => route.path.replace(':deliveryId', d).replace(':slug', id).replace(':id', id))
      const authed = route.path.startsWith('/api/v1/') && !route.path.startsWith('/api/v1/stores')
      const requestArb =
        route.method === 'GET'
          ? fc.tuple(pathArb, queryArb).map(([p, q]) => ({
              path: q ? `${p}?${q}` : p,
              body: undefined as Body | undefined,
              idem: undefined as string | undefined,
            }))
          : fc.tuple(pathArb, bodyArb(seeds[name] ?? fc.constant({})), idempotencyArb).map(([p, b, idem]) => ({
              path: p,
              body: b as Body | undefined,
              idem: name === 'POST /api/orders' ? idem : undefined,
            }))

      let tried = 0
      const details = await fc.check(
        fc.asyncProperty(requestArb, async (req) => {
          tried++
          const headers: Record<string, string> = {}
          if (authed) headers.authorization = `Bearer ${key}`
          if (req.body?.contentType) headers['content-type'] = req.body.contentType
          if (req.idem !== undefined) headers['idempotency-key'] = req.idem
          const before = counts()
          const res = await t.app.handle(
            new Request(`http://localhost${req.path}`, { method: route.method, headers, body: req.body?.text }),
          )
          const text = await res.text()
          let parsed: unknown
          try {
            parsed = JSON.parse(text)
          } catch {
            throw new Error(`${res.status}: body is not JSON: ${text.slice(0, 200)}`)
          }
          if (res.status >= 500) throw new Error(`5xx ${res.status}: ${text.slice(0, 300)}`)
          const shape = errorShapeProblem(res.status, parsed, res.headers)
          if (shape) throw new Error(`${res.status} error shape: ${shape}: ${text.slice(0, 300)}`)
          if (res.status >= 400 || route.method === 'GET') {
            const changed = diffCounts(before, counts())
            if (changed.length) throw new Error(`${res.status} ${route.method} changed rows: ${changed.join(', ')}`)
          }
        }),
        { numRuns: opts.runsPerRoute, seed: seed + routes.indexOf(route), endOnFailure: false, maxSkipsPerRun: 0 },
      )
      r.tried += tried
      if (details.failed) {
        const message = String((details.errorInstance as Error)?.message ?? details.errorInstance)
        if (message.startsWith('5xx')) r.fiveXx++
        const example = JSON.stringify(details.counterexample, (_k, v) =>
          typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}…(${v.length})` : v,
        )
        fail(r, `${name}: ${message}\n    counterexample: ${example?.slice(0, 1500)}`)
        log(`FAIL ${name}: ${message}`)
      }
    }
    r.notes.push(
      `${routes.length} routes fuzzed (${routes.filter((x) => x.method === 'GET').length} GET query ` +
        `strings, ${routes.filter((x) => x.method !== 'GET').length} POST/PUT bodies)`,
    )
  })

  receiver.stop()
  t.close()
  return r
}
