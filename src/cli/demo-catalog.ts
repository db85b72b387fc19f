/**
 * What the demo store holds: its name, owner, categories, products (with variants, some low on
 * stock and one sold out, so a storefront shows every state), shipping options and discount.
 */
import type { Motif } from './demo-pictures'

export const DEMO_SLUG = 'demo'
export const DEMO_KEY_NAME = 'demo'
/** The demo store's owner in the panel: signs in with the one-time link the demo prints. */
export const DEMO_OWNER_EMAIL = 'owner@demo.example'
export const DEMO_WHATSAPP = '+14155550123'
export const DEMO_DESCRIPTION =
  'Freshly roasted coffee, loose-leaf tea and brewing gear. This demo store comes from bun run demo: ' +
  'place an order in the browser.'

export const CATEGORIES = ['Coffee', 'Tea', 'Accessories']

/**
 * Variants are [name, price, stock?]; stock absent = not tracked. Some items run low and the
 * Ethiopia 500 g is sold out, so a storefront shows every state.
 */
export const PRODUCTS: {
  name: string
  category: string
  price: number
  comparePrice?: number
  description: string
  stock?: number
  motif: Motif
  variants: [string, number, number?][]
}[] = [
  {
    name: 'House Blend Coffee',
    category: 'Coffee',
    price: 14.5,
    description: 'Medium roast, chocolate and hazelnut notes.',
    motif: 'bag',
    variants: [
      ['250 g', 14.5, 40],
      ['500 g', 26, 25],
      ['1 kg', 48, 3],
    ],
  },
  {
    name: 'Ethiopia Yirgacheffe',
    category: 'Coffee',
    price: 18,
    comparePrice: 21,
    description: 'Light roast, floral and citrus.',
    motif: 'bag',
    variants: [
      ['250 g', 18, 2],
      ['500 g', 33, 0],
    ],
  },
  {
    name: 'Decaf Colombia',
    category: 'Coffee',
    price: 15,
    description: 'Swiss-water decaf, caramel sweetness.',
    stock: 12,
    motif: 'bag',
    variants: [],
  },
  {
    name: 'Jasmine Green Tea',
    category: 'Tea',
    price: 9.75,
    description: 'Loose leaf, scented with jasmine blossoms.',
    motif: 'tin',
    variants: [
      ['50 g', 9.75],
      ['100 g', 17.5],
    ],
  },
  {
    name: 'Earl Grey',
    category: 'Tea',
    price: 8.5,
    description: 'Black tea with bergamot.',
    motif: 'tin',
    variants: [
      ['50 g', 8.5],
      ['100 g', 15],
    ],
  },
  {
    name: 'Ceramic Pour-Over',
    category: 'Accessories',
    price: 32,
    description: 'Hand-glazed dripper, size 02.',
    motif: 'dripper',
    variants: [
      ['White', 32, 5],
      ['Black', 32, 1],
      ['Sage', 34],
    ],
  },
  {
    name: 'Glass Teapot',
    category: 'Accessories',
    price: 27.9,
    comparePrice: 34.9,
    description: '800 ml borosilicate with steel infuser.',
    stock: 4,
    motif: 'teapot',
    variants: [],
  },
]

export const SHIPPING: { name: string; price: number; description: string; estimatedDays: number }[] = [
  { name: 'Standard', price: 4.99, description: 'Tracked parcel', estimatedDays: 5 },
  { name: 'Express', price: 12.5, description: 'Next business day', estimatedDays: 1 },
]

export const DEMO_DISCOUNT = { code: 'WELCOME10', type: 'percentage' as const, percent: 10 }
