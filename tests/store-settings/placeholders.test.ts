/**
 * The WhatsApp template's placeholders: every name in English, Spanish and Portuguese is accepted
 * whatever the store's language and renders the same value; unknown ones are refused by name;
 * the default message carries the order number, lines, shipping, discount, total and address.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile, expectStatus } from '../helpers/app'
import { addDiscount, makeCatalog, makeShop, orderBody } from '../helpers/factories'

const t = appForFile({ rateLimitOrders: 100_000 })

const ALIASES: [string[], (o: Rendered) => string][] = [
  [['store', 'tienda', 'loja'], (o) => o.storeName],
  [['customer', 'nombre', 'cliente'], () => 'Eva Lima'],
  [['items', 'productos', 'itens'], () => '- 2 x Shirt (Large): 24.00 USD\n- 1 x Mug: 10.00 USD'],
  [['total'], () => '28.80 USD'],
  [['order', 'pedido'], (o) => o.orderNumber],
  [['shipping', 'envio', 'frete'], () => 'Courier 5.00 USD'],
  [['discount', 'descuento', 'desconto'], (o) => `${o.code} −10.20 USD`],
  [['address', 'direccion', 'endereco'], () => 'Calle 1, Lima'],
  [['status_url'], (o) => o.statusUrl],
]
type Rendered = { storeName: string; orderNumber: string; code: string; statusUrl: string }

async function orderWith(template: string | null, language: 'en' | 'es' | 'pt' = 'en') {
  const { store, key } = makeShop(t.deps)
  const [res, body] = await t.api.put('/api/v1/store', { whatsappTemplate: template, language }, { key })
  expectStatus(res, body).toBe(200)
  const cat = makeCatalog(t.deps, store.id)
  const code = addDiscount(t.deps, store.id, { type: 'percentage', value: 3000 }).code
  const [r, placed] = await t.api.post(
    '/api/orders',
    orderBody(store.id, cat, { name: 'Eva Lima', shippingOptionId: cat.courier.id, discountCode: code }),
  )
  expectStatus(r, placed).toBe(201)
  const text = new URL(placed.whatsappUrl).searchParams.get('text')!
  return { text, o: { storeName: store.name, orderNumber: placed.orderNumber, code, statusUrl: placed.statusUrl } }
}

describe('WhatsApp template placeholders', () => {
  for (const [names, expected] of ALIASES)
    for (const name of names)
      test(`{${name}} is accepted in every store language and renders its value`, async () => {
        for (const language of ['en', 'es', 'pt'] as const) {
          const { text, o } = await orderWith(`[{${name}}]`, language)
          const value = expected(o)
          // {status_url} placed in the template is not repeated after it.
          expect(text).toBe(name === 'status_url' ? `[${value}]` : `[${value}]\n\n${o.statusUrl}`)
        }
      })

  test('unknown placeholders → 400 naming each once; nothing saved', async () => {
    const { key } = makeShop(t.deps)
    const [res, body] = await t.api.put(
      '/api/v1/store',
      { whatsappTemplate: 'Hi {store} {precio} {Total} {precio} {envío}' },
      { key },
    )
    expectStatus(res, body).toBe(400)
    expect(body.details).toMatchObject({
      field: 'whatsappTemplate',
      reason: 'invalid_format',
      placeholders: ['{precio}', '{Total}', '{envío}'],
    })
    for (const name of ['{precio}', '{Total}', '{envío}']) expect(body.error).toContain(name)
    const [, after] = await t.api.get('/api/v1/store', { key })
    expect(after.data.whatsappTemplate).toBeNull()
  })

  test('the default message has number, lines, shipping, discount, total, address, in the store language', async () => {
    const { text, o } = await orderWith(null, 'en')
    expect(text).toBe(
      `Hi ${o.storeName}, this is Eva Lima. I would like to place order ${o.orderNumber}:\n` +
        '- 2 x Shirt (Large): 24.00 USD\n- 1 x Mug: 10.00 USD\n' +
        `Shipping: Courier 5.00 USD\nDiscount: ${o.code} −10.20 USD\nTotal: 28.80 USD\nAddress: Calle 1, ` +
        `Lima\n\n${o.statusUrl}`,
    )
    const es = await orderWith(null, 'es')
    expect(es.text).toContain(`pedido ${es.o.orderNumber}:`)
    expect(es.text).toContain('Envío: Courier 5.00 USD')
    const pt = await orderWith(null, 'pt')
    expect(pt.text).toContain('Frete: Courier 5.00 USD')
  })

  test('without shipping, discount or address the default leaves those lines out', async () => {
    const { store } = makeShop(t.deps)
    const cat = makeCatalog(t.deps, store.id)
    const [, placed] = await t.api.post('/api/orders', orderBody(store.id, cat, { address: null }))
    const text = new URL(placed.whatsappUrl).searchParams.get('text')!
    expect(text).not.toContain('Shipping:')
    expect(text).not.toContain('Discount:')
    expect(text).not.toContain('Address:')
    expect(text).toContain('Total: 34.00 USD')
  })
})
