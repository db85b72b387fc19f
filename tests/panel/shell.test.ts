/**
 * The frame every signed-in panel page shares, over HTTP: the phone's tabs and the side
 * navigation, the More page by role, and the new-order alerts' server side — the unseen count
 * (the orders new to that person, as the inbox marks them) on the Orders link and in the title of
 * every page, capped at "99+", and the stream's starting point read with it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeApp, type TestApp } from '../helpers/app'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { makeCatalog, orderBody, placeOrder } from '../helpers/factories'
import { lastOrderEventId } from '../../src/modules/orders/sql'

let t: TestApp
const client = () => new PanelClient((r) => t.app.handle(r))

beforeAll(() => {
  t = makeApp()
})
afterAll(() => t.close())

const title = (text: string) => /<title>([^<]*)<\/title>/.exec(text)?.[1]
/** The Orders links' inner markup (side navigation and tabs). */
const ordersLinks = (text: string) =>
  [...text.matchAll(/<a href="\/admin\/orders"[^>]*data-badge="orders"[^>]*>(.*?)<\/a>/g)].map((m) => m[1])
const bodyTag = (text: string) => /<body[^>]*>/.exec(text)![0]
const nav = (text: string, label: string) =>
  new RegExp(`<nav[^>]*aria-label="${label}"[^>]*>(.*?)</nav>`, 's').exec(text)?.[1]
const links = (html: string | undefined) => [...(html ?? '').matchAll(/<a [^>]*>([^<]*)/g)].map((m) => m[1])

async function shopWithOrders(n: number) {
  const shop = await makeOwnerShop(t.deps)
  const cat = makeCatalog(t.deps, shop.store.id)
  const ids: string[] = []
  const place = () => placeOrder(t.deps, orderBody(shop.store.id, cat)).body.id as string
  for (let i = 0; i < n; i++) ids.push(place())
  const owner = client()
  await signIn(owner, shop.email)
  return { shop, cat, ids, owner, place }
}

describe('the unseen count on every page', () => {
  test(
    'every panel page shows the count on the Orders link and in the title; ' +
      'opening an order lowers it for that person only',
    async () => {
      const { shop, ids, owner, place } = await shopWithOrders(2)
      const staff = client()
      await signIn(staff, (await makeMember(t.deps, shop.store.id, 'staff')).email)
      // Orders placed before the staff member joined are not new to them.
      place()

      const pages = ['/admin', '/admin/orders', '/admin/products', '/admin/customers', '/admin/more', '/admin/account']
      for (const path of pages) {
        const page = await owner.get(path)
        expect(page.status).toBe(200)
        expect(title(page.text)).toStartWith('(3) ')
        const orders = ordersLinks(page.text)
        // The side navigation's and the phone tabs' (the More page lists it a third time).
        expect(orders.length).toBeGreaterThanOrEqual(2)
        for (const o of orders) {
          expect(o).toContain('<span class="sr-only"> 3 new</span>')
          expect(o).toContain('<span class="badge" aria-hidden="true">3</span>')
        }
      }
      expect(title((await staff.get('/admin/products')).text)).toBe('(1) Products · Seller panel')

      await owner.get(`/admin/orders/${ids[0]}`)
      expect(title((await owner.get('/admin/products')).text)).toBe('(2) Products · Seller panel')
      expect(title((await staff.get('/admin/products')).text)).toBe('(1) Products · Seller panel')
    },
  )

  test('no unseen orders: no count in the title and a plain Orders link', async () => {
    const { owner } = await shopWithOrders(0)
    const page = await owner.get('/admin/products')
    expect(title(page.text)).toBe('Products · Seller panel')
    expect(ordersLinks(page.text)).toEqual(['Orders', 'Orders'])
    // The script's hooks are there all the same, so an arrival can add the count.
    expect(bodyTag(page.text)).toContain('data-unseen="0"')
    expect(page.text).toContain('data-badge="orders" data-badge-words="{n} new"')
  })

  test('past 99 the count says "99+"', async () => {
    const { owner } = await shopWithOrders(101)
    const page = await owner.get('/admin')
    expect(title(page.text)).toBe('(99+) Dashboard · Seller panel')
    expect(ordersLinks(page.text)[0]).toContain('<span class="sr-only"> 99+ new</span>')
  })

  test("the page's stream starts where its count was read; the dashboard's list names its own point", async () => {
    const { owner, place } = await shopWithOrders(1)
    place()
    const head = lastOrderEventId(t.deps.db.$client)
    const page = await owner.get('/admin')
    expect(bodyTag(page.text)).toContain(`data-stream="/admin/orders/live" data-after="${head}" data-unseen="2"`)
    const list = /<ol class="orders"[^>]*>/.exec(page.text)![0]
    expect(list).toContain('data-live-list="5"')
    expect(list).toContain(`data-after="${head}"`)
  })

  test('a page without a signed-in person has no stream and no count', async () => {
    const page = await client().get('/admin/login')
    expect(bodyTag(page.text)).toBe('<body>')
    expect(page.text).not.toContain('data-badge="orders"')
  })
})

describe('navigation', () => {
  test(
    'the tabs are Orders, Products, Dashboard and More, the current one marked; ' +
      'the side navigation has every link the role allows',
    async () => {
      const { owner } = await shopWithOrders(0)
      const page = (await owner.get('/admin/products')).text
      expect(links(nav(page, 'Shortcuts'))).toEqual(['Orders', 'Products', 'Dashboard', 'More'])
      expect(nav(page, 'Shortcuts')).toContain('<a href="/admin/products" class="tab" aria-current="page">')
      expect(links(nav(page, 'Main'))).toEqual([
        'Dashboard',
        'Orders',
        'Products',
        'Categories',
        'Discounts',
        'Shipping',
        'Reviews',
        'Customers',
        'Settings',
        'Team',
        'API keys',
        'Webhooks',
        'Activity',
      ])
    },
  )

  test("the More page lists what the role allows, the account, and signing out with the session's token", async () => {
    const { shop, owner } = await shopWithOrders(0)
    const more = await owner.get('/admin/more')
    expect(more.status).toBe(200)
    expect(more.text).toContain('<h1>More</h1>')
    const list = /<ul class="more">(.*?)<\/ul>/s.exec(more.text)![1]
    expect(links(list)).toContain('Team')
    expect(links(list)).toContain('Account')
    expect(more.text).toMatch(
      /<form method="post" action="\/admin\/logout"><input type="hidden" name="_csrf" value="[^"]+">/,
    )
    expect(nav(more.text, 'Shortcuts')).toContain(
      '<a class="tab" href="/admin/more" aria-current="page">More<span class="sr-only"> pages</span></a>',
    )

    const viewer = client()
    await signIn(viewer, (await makeMember(t.deps, shop.store.id, 'viewer')).email)
    const seen = links(/<ul class="more">(.*?)<\/ul>/s.exec((await viewer.get('/admin/more')).text)![1])
    expect(seen).toContain('Orders')
    for (const name of ['Team', 'API keys', 'Webhooks', 'Activity']) expect(seen).not.toContain(name)

    const stranger = await client().get('/admin/more')
    expect(stranger.status).toBe(303)
  })

  test("the tabs and the More page speak the person's language", async () => {
    const shop = await makeOwnerShop(t.deps)
    const es = new PanelClient((r) => t.app.handle(r), undefined, { 'accept-language': 'es' })
    await signIn(es, shop.email)
    const page = await es.get('/admin/more')
    expect(page.text).toContain('<h1>Más</h1>')
    expect(links(nav(page.text, 'Accesos rápidos'))).toEqual(['Pedidos', 'Productos', 'Inicio', 'Más'])
  })
})
