import { describe, expect, test } from 'bun:test'
import { renderTemplate } from '../../src/lib/whatsapp'

const values = {
  store: 'Shop $& $1',
  customer: 'Ana {tienda}',
  items: '- 1 x Mug: 5.00 USD',
  total: '5.00 USD',
  order: 'ORD-000001',
  shipping: '',
  discount: '',
  address: '',
  status_url: '',
}

describe('renderTemplate (src/lib/whatsapp.ts: each template read once, then filled per order)', () => {
  test('fills each name in any language, keeps unknown names as written, drops lines of empty values only', () => {
    const template = 'Hi {store}, {nombre}\nShipping: {envio}\n{bogus} {envio}\n{envio}{descuento}\n{}\nTotal {total}'
    expect(renderTemplate(template, values)).toBe('Hi Shop $& $1, Ana {tienda}\n{bogus} \n{}\nTotal 5.00 USD')
    // The same template again (now read before): the same message.
    expect(renderTemplate(template, values)).toBe(renderTemplate(template, values))
    expect(renderTemplate(template, { ...values, shipping: 'Courier' })).toBe(
      'Hi Shop $& $1, Ana {tienda}\nShipping: Courier\n{bogus} Courier\nCourier\n{}\nTotal 5.00 USD',
    )
  })

  test("no template: the store language's default", () => {
    expect(renderTemplate(null, values, 'en')).toBe(
      'Hi Shop $& $1, this is Ana {tienda}. I would like to place order ORD-000001:\n' +
        '- 1 x Mug: 5.00 USD\nTotal: 5.00 USD',
    )
  })

  test('more templates than are kept read: each still renders as its own', () => {
    for (let i = 0; i < 600; i++) expect(renderTemplate(`#${i} {order}`, values)).toBe(`#${i} ORD-000001`)
    expect(renderTemplate('#0 {order} {total}', values)).toBe('#0 ORD-000001 5.00 USD')
  })
})
