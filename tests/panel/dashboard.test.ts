/**
 * The dashboard, over HTTP: figures from the rollups, the SVG chart and its table,
 * top products, low stock, latest orders, the checklist; the free plan's upgrade box.
 */
import { expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { addProduct, addShipping, makeCatalog, orderBody, placeOrder, uniqPhone } from '../helpers/factories'
import { qrSvgOf } from '../../src/panel/views/qr'

const t = appForFile()

test('today / 7 / 30 days, chart with its table, top products, low stock, latest orders, checklist', async () => {
  const shop = await makeOwnerShop(t.deps, { plan: 'pro' })
  const cat = makeCatalog(t.deps, shop.store.id)
  t.deps.db.$client.run('UPDATE variants SET stock = 7 WHERE id = ?', [cat.large.id])
  const a = placeOrder(t.deps, orderBody(shop.store.id, cat)).body // 2 x Large (24.00) + mug (10.00)
  placeOrder(t.deps, orderBody(shop.store.id, cat, { items: [{ productId: cat.mug.id, quantity: 1 }] }))
  const owner = new PanelClient((r) => t.app.handle(r))
  await signIn(owner, shop.email)
  const page = await owner.get('/admin')
  expect(page.status).toBe(200)
  expect(page.text).toContain('<h1>Dashboard</h1>')
  expect(page.text).toContain('Today')
  expect(page.text).toContain('Orders: <strong>2</strong>')
  expect(page.text).toContain('Revenue: <strong>$44.00</strong>')
  expect(page.text).toContain('Average order: $22.00')
  expect(page.text).toMatch(/<svg class="chart"[^>]*role="img"/)
  expect(page.text).toContain('<rect')
  expect(page.text).toContain('Show the numbers as a table')
  expect(page.text).toContain('Mug · 2 sold')
  expect(page.text).toMatch(/Shirt \(Large\): <strong>5 left<\/strong>/)
  expect(page.text).toContain(a.orderNumber)
  expect(page.text).toContain('Getting started')
  expect(page.text).not.toContain('<script>')
  // A viewer sees it too.
  const viewer = new PanelClient((r) => t.app.handle(r))
  await signIn(viewer, (await makeMember(t.deps, shop.store.id, 'viewer')).email)
  expect((await viewer.get('/admin')).status).toBe(200)
})

test('top products: the five sold most by quantity (revenue breaks a tie), named, the sixth left out', async () => {
  const shop = await makeOwnerShop(t.deps, { plan: 'pro' })
  const courier = addShipping(t.deps, shop.store.id, { price: 500 })
  // Quantities 1…6 of six products; "Tied" sells as many as "Top 3" but at a higher price.
  const sold: [string, number, number][] = [
    ['Least', 1, 100],
    ['Top 5', 2, 100],
    ['Top 4', 3, 100],
    ['Top 3', 4, 100],
    ['Tied', 4, 900],
    ['Top 1', 6, 100],
  ]
  for (const [name, quantity, price] of sold) {
    const product = addProduct(t.deps, shop.store.id, { name, price })
    placeOrder(t.deps, {
      storeId: shop.store.id,
      name: 'Ana Pérez',
      phone: uniqPhone(),
      address: 'Calle 1, Lima',
      items: [{ productId: product.id, quantity }],
      shippingOptionId: courier.id,
    })
  }
  const owner = new PanelClient((r) => t.app.handle(r))
  await signIn(owner, shop.email)
  const page = await owner.get('/admin')
  const list = /<h2 id="top-h">[^<]*<\/h2>\s*<ol>([\s\S]*?)<\/ol>/.exec(page.text)?.[1] ?? ''
  const names = [...list.matchAll(/<li>([^·<]+) ·/g)].map((m) => m[1]!.trim())
  expect(names).toEqual(['Top 1', 'Tied', 'Top 3', 'Top 4', 'Top 5'])
})

test('on the free plan the analytics part shows the upgrade link; the counts stay', async () => {
  const shop = await makeOwnerShop(t.deps, { plan: 'free' })
  const cat = makeCatalog(t.deps, shop.store.id)
  placeOrder(t.deps, orderBody(shop.store.id, cat))
  const owner = new PanelClient((r) => t.app.handle(r))
  await signIn(owner, shop.email)
  const page = await owner.get('/admin')
  expect(page.text).toContain('Orders: <strong>1</strong>')
  expect(page.text).not.toContain('Revenue:')
  expect(page.text).not.toContain('<svg class="chart"')
  expect(page.text).toContain('More with a paid plan')
  expect(page.text).toContain(`href="${t.config.upgradeUrl}"`)
})

test(
  "the checklist's share step: the store's link and its QR code, " + 'drawn on the server as inline SVG with a name',
  async () => {
    const shop = await makeOwnerShop(t.deps, { plan: 'free' })
    const owner = new PanelClient((r) => t.app.handle(r))
    await signIn(owner, shop.email)
    const page = await owner.get('/admin')
    const url = `${owner.origin}/s/${shop.store.slug}`
    expect(page.text).toContain(`<a href="${url}">${url}</a>`)
    const svg = /<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*class="qr"[\s\S]*?<\/svg>/.exec(page.text)?.[0]
    expect(svg).toBeDefined()
    expect(svg).toContain(
      'role="img" aria-labelledby="qr-title"><title id="qr-title">QR code of your store&#39;s link</title>',
    )
    // The modules drawn are uqr's for exactly this URL.
    const expected = qrSvgOf(url)
    const modules = /<path[^>]* d="([^"]+)"/.exec(expected)![1]!
    expect(modules.length).toBeGreaterThan(100)
    expect(svg).toContain(expected.slice(expected.indexOf('><rect') + 1))
    expect(qrSvgOf(`${url}x`)).not.toContain(modules)
    expect(page.text).not.toContain('<script>')
  },
)

test(
  'conversion: storefront orders ÷ storefront visits; orders over the API (another site, ' +
    'a script) are not counted',
  async () => {
    const shop = await makeOwnerShop(t.deps, { plan: 'pro' })
    const cat = makeCatalog(t.deps, shop.store.id)
    const order = (headers: Record<string, string>) =>
      t.app.handle(
        new Request('http://localhost/api/orders', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(orderBody(shop.store.id, cat, { items: [{ productId: cat.mug.id, quantity: 1 }] })),
        }),
      )
    // The store's own page (the browser says same-origin), a page of another site, a server-side client.
    expect((await order({ 'sec-fetch-site': 'same-origin', origin: 'http://localhost' })).status).toBe(201)
    expect((await order({ 'sec-fetch-site': 'cross-site', origin: 'https://elsewhere.example' })).status).toBe(201)
    for (let i = 0; i < 3; i++) expect((await order({})).status).toBe(201)
    const sources = t.deps.db.$client
      .query<{ source: string }, [string]>('SELECT source FROM orders WHERE store_id = ? ORDER BY source')
      .all(shop.store.id)
      .map((r) => r.source)
    expect(sources).toEqual(['api', 'api', 'api', 'api', 'storefront'])
    t.deps.db.$client.run('INSERT INTO catalog_visits (store_id, created_at, count) VALUES (?, ?, 4)', [
      shop.store.id,
      t.deps.clock.now(),
    ])
    const owner = new PanelClient((r) => t.app.handle(r))
    await signIn(owner, shop.email)
    const page = await owner.get('/admin')
    // Five orders in all, one from the storefront, four visits: 25 %, not 125 %.
    expect(page.text).toContain('Orders: <strong>5</strong>')
    expect(page.text).toContain('Visits: 4 · Conversion: 25%')
    expect(page.text).not.toContain('125%')
  },
)

test('the chart has a date axis, an orders and a revenue axis, and a legend naming bars and line', async () => {
  const shop = await makeOwnerShop(t.deps, { plan: 'pro' })
  const cat = makeCatalog(t.deps, shop.store.id)
  for (let i = 0; i < 3; i++) placeOrder(t.deps, orderBody(shop.store.id, cat)) // 3 × 34.00 today
  const owner = new PanelClient((r) => t.app.handle(r))
  await signIn(owner, shop.email)
  const page = await owner.get('/admin')
  const svg = /<svg class="chart"[\s\S]*?<\/svg>/.exec(page.text)![0]
  const labels = [...svg.matchAll(/<text [^>]*>([^<]+)<\/text>/g)].map((m) => m[1]!)
  const day = (ms: number) =>
    new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(ms)
  const now = t.deps.clock.now()
  // Dates: the first of the 30 days, the middle one and today.
  expect(labels).toContain(day(now - 29 * 86_400_000))
  expect(labels).toContain(day(now))
  // Orders axis 0 … 5 (3 rounded up), revenue axis $0 … $200 (102.00 rounded up).
  expect(labels).toEqual(expect.arrayContaining(['0', '3', '5', '$0', '$100', '$200']))
  const legend = /<ul class="legend">([\s\S]*?)<\/ul>/.exec(page.text)![1]!
  expect(legend).toContain('Orders (bars, left axis)')
  expect(legend).toContain('Revenue (line, right axis)')
})

test('"Share your store" stays once every getting-started step is done', async () => {
  const shop = await makeOwnerShop(t.deps, { plan: 'pro' })
  const db = t.deps.db.$client
  makeCatalog(t.deps, shop.store.id)
  addShipping(t.deps, shop.store.id, { price: 500 })
  const product = db
    .query<{ id: string }, [string]>('SELECT id FROM products WHERE store_id = ? LIMIT 1')
    .get(shop.store.id)!
  db.run(
    'INSERT INTO product_images (id, product_id, store_id, position, width, height, widths, created_at) ' +
      "VALUES (?, ?, ?, 0, 10, 10, '320', 0)",
    [`img-${shop.store.id}`, product.id, shop.store.id],
  )
  db.run("UPDATE stores SET whatsapp_number = '+14155550123', is_published = 1 WHERE id = ?", [shop.store.id])
  const owner = new PanelClient((r) => t.app.handle(r))
  await signIn(owner, shop.email)
  const page = await owner.get('/admin')
  expect(page.text).not.toContain('Getting started')
  expect(page.text).toContain('<h2 id="share-h">Share your store</h2>')
  expect(page.text).toContain(`<a href="${owner.origin}/s/${shop.store.slug}">`)
  expect(page.text).toMatch(/<svg [^>]*class="qr"/)
})
