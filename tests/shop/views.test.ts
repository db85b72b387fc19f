/**
 * The page views as functions, on products built here: the sold-out and `srcset` paths (the
 * `inStock` and `images` fields come with the inventory/images work), the same-origin image
 * rule, and the templating's escaping.
 */
import { describe, expect, test } from 'bun:test'
import { escapeHtml, html, jsonForScript, raw } from '../../src/shop/html'
import { wordsFor } from '../../src/shop/i18n'
import {
  cartPage,
  catalogPage,
  isAvailable,
  productPage,
  type PageCtx,
  type ViewCatalog,
  type ViewProduct,
} from '../../src/shop/views'

const c: PageCtx = { words: wordsFor('en'), language: 'en', origin: 'https://shop.test' }

function product(over: Partial<ViewProduct> = {}): ViewProduct {
  return {
    id: 'p1',
    name: 'Mug',
    slug: 'mug',
    description: null,
    price: 10,
    comparePrice: null,
    imageUrl: null,
    categoryId: null,
    variants: [],
    reviewCount: 0,
    averageRating: null,
    ...over,
  }
}
function catalog(products: ViewProduct[]): ViewCatalog {
  return {
    store: { id: 's1', name: 'Shop', slug: 'shop', description: null, currency: 'USD', whatsappNumber: null },
    categories: [],
    products,
    shippingOptions: [],
  }
}

describe('html templating', () => {
  test('every interpolation is escaped; raw() is the one way out; arrays and empties', () => {
    const evil = `<script>alert("x")</script>&'`
    expect(html`<p title="${evil}">${evil}</p>`.value).toBe(
      `<p title="${escapeHtml(evil)}">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>`,
    )
    expect(html`<b>${raw('<i>ok</i>')}</b>`.value).toBe('<b><i>ok</i></b>')
    expect(html`${['<a>', html`<b>`]}${null}${undefined}${false}${0}`.value).toBe('&lt;a&gt;<b>0')
    expect(jsonForScript({ n: '</script><!--\u2028' }).value).toBe('{"n":"\\u003c/script>\\u003c!--\\u2028"}')
  })
})

describe('stock (inStock absent = available)', () => {
  test('availability rules', () => {
    expect(isAvailable(product())).toBe(true)
    expect(isAvailable(product({ inStock: false }))).toBe(false)
    expect(isAvailable(product({ variants: [{ id: 'v1', name: 'A', price: 1, inStock: false }] }))).toBe(false)
    expect(
      isAvailable(
        product({
          variants: [
            { id: 'v1', name: 'A', price: 1, inStock: false },
            { id: 'v2', name: 'B', price: 1 },
          ],
        }),
      ),
    ).toBe(true)
  })

  test('a sold-out product: marked in the catalog, its add button disabled, OutOfStock in JSON-LD', () => {
    const p = product({ inStock: false })
    expect(catalogPage(catalog([p]), c).value).toContain('<p class="sold">Sold out</p>')
    const page = productPage(catalog([p]), p, c).value
    expect(page).toContain('<button type="submit" disabled>Sold out</button>')
    expect(page).toContain('"availability":"https://schema.org/OutOfStock"')
    expect(page).not.toContain('Add to cart')
  })

  test('a sold-out variant cannot be picked; the first one in stock is preselected', () => {
    const p = product({
      variants: [
        { id: 'v1', name: 'Red', price: 1, inStock: false },
        { id: 'v2', name: 'Blue', price: 1, inStock: true },
      ],
    })
    const page = productPage(catalog([p]), p, c).value
    expect(page).toContain(
      '<label class="opt out"><input type="radio" name="variant" value="v1" disabled required> <span>Red</span>',
    )
    expect(page).toContain('<input type="radio" name="variant" value="v2" checked required> <span>Blue</span>')
    expect(page).toContain('<button type="submit">Add to cart</button>')
    // The cart's data block carries it too, so the script won't order it.
    expect(cartPage(catalog([p]), c).value).toContain('"v1":{"name":"Red","price":1,"inStock":false}')
  })
})

describe('images', () => {
  test(
    'srcset from the sizes of the first image, with width/height; alt is the product name (empty on cards, ' +
      'where the name follows)',
    () => {
      const p = product({
        name: 'Mug "A"',
        images: [
          {
            url: '/media/a-640.webp',
            width: 640,
            height: 480,
            sizes: [
              { url: '/media/a-320.webp', width: 320 },
              { url: '/media/a-640.webp', width: 640 },
              { url: '/media/a-1280.webp', width: 1280 },
            ],
          },
        ],
      })
      const page = productPage(catalog([p]), p, c).value
      expect(page).toContain(
        '<img src="/media/a-640.webp" ' +
          'srcset="/media/a-320.webp 320w, /media/a-640.webp 640w, /media/a-1280.webp 1280w" ' +
          'sizes="(min-width: 40rem) 32rem, 100vw" width="640" height="480" alt="Mug &quot;A&quot;" ' +
          'fetchpriority="high"',
      )
      expect(page).toContain('<meta property="og:image" content="https://shop.test/media/a-640.webp">')
      const card = catalogPage(catalog([p]), c).value
      expect(card).toContain('srcset="/media/a-320.webp 320w')
      expect(card).toContain('alt=""')
    },
  )

  test('only pictures on our own origin are shown (no request leaves it); none → no <img>', () => {
    const external = product({ imageUrl: 'https://cdn.example.com/a.jpg' })
    const own = product({ imageUrl: 'https://shop.test/media/b.webp' })
    const protoRelative = product({ imageUrl: '//cdn.example.com/c.jpg' })
    expect(productPage(catalog([external]), external, c).value).not.toContain('<img')
    expect(productPage(catalog([protoRelative]), protoRelative, c).value).not.toContain('<img')
    expect(productPage(catalog([own]), own, c).value).toContain('<img src="/media/b.webp"')
    expect(catalogPage(catalog([product()]), c).value).not.toContain('<img')
  })
})
