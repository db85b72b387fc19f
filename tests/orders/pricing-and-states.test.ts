/** Pure pieces of the order flow: status machine, dedup hashing, money/discount math, idempotency hashing. */
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { ORDER_STATUSES, type OrderStatus } from '../../src/db/schema'
import { assertTransition, canTransition, nextStatuses } from '../../src/modules/orders/status'
import { canonicalLines, dedupHash } from '../../src/modules/orders/dedup'
import { discountAmount, meetsMinimum, orderTotal } from '../../src/modules/orders/pricing'
import { canonicalJson, parseIdempotencyKey, requestHash } from '../../src/modules/orders/idempotency'
import { formatOrderNumber } from '../../src/modules/orders/checkout/place'
import { AppError } from '../../src/lib/errors'

describe('status machine', () => {
  const allowed = new Set([
    'pending>confirmed',
    'confirmed>shipped',
    'shipped>delivered',
    'pending>cancelled',
    'confirmed>cancelled',
    'shipped>cancelled',
  ])

  test('allows exactly the documented status moves, over every pair', () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        expect([`${from}>${to}`, canTransition(from, to)]).toEqual([`${from}>${to}`, allowed.has(`${from}>${to}`)])
      }
    }
  })

  test('delivered and cancelled are final; no status moves to itself', () => {
    expect(nextStatuses('delivered')).toEqual([])
    expect(nextStatuses('cancelled')).toEqual([])
    for (const s of ORDER_STATUSES) expect(canTransition(s, s)).toBe(false)
  })

  test('a refused move is 409 INVALID_STATUS_TRANSITION with details { from, to }', () => {
    const err = (() => {
      try {
        assertTransition('delivered', 'cancelled')
      } catch (e) {
        return e as AppError
      }
    })()
    expect(err).toBeInstanceOf(AppError)
    expect(err!.status).toBe(409)
    expect(err!.toBody()).toMatchObject({
      code: 'INVALID_STATUS_TRANSITION',
      details: { from: 'delivered', to: 'cancelled' },
    })
    expect(() => assertTransition('pending' as OrderStatus, 'confirmed')).not.toThrow()
  })
})

describe('dedup hash', () => {
  const line = fc
    .record({
      variantId: fc.option(fc.constantFrom('v1', 'v2', 'v3'), { nil: undefined }),
      productId: fc.constantFrom('p1', 'p2'),
      quantity: fc.integer({ min: 1, max: 5 }),
    })
    .map((l) =>
      l.variantId ? { variantId: l.variantId, quantity: l.quantity } : { productId: l.productId, quantity: l.quantity },
    )

  test('ignores line order (any permutation hashes the same)', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), fc.nat(), (lines, seed) => {
        const shuffled = [...lines].sort(() => (seed = (seed * 9301 + 49297) % 233280) / 233280 - 0.5)
        expect(dedupHash('+14155552671', shuffled)).toBe(dedupHash('+14155552671', lines))
      }),
    )
  })

  test('differs by phone, quantity, reference kind and multiset', () => {
    const base = dedupHash('+14155552671', [{ variantId: 'v1', quantity: 1 }])
    expect(dedupHash('+14155552672', [{ variantId: 'v1', quantity: 1 }])).not.toBe(base)
    expect(dedupHash('+14155552671', [{ variantId: 'v1', quantity: 2 }])).not.toBe(base)
    expect(dedupHash('+14155552671', [{ productId: 'v1', quantity: 1 }])).not.toBe(base)
    // Two lines of one is a different multiset from one line of two.
    expect(
      dedupHash('+14155552671', [
        { variantId: 'v1', quantity: 1 },
        { variantId: 'v1', quantity: 1 },
      ]),
    ).not.toBe(dedupHash('+14155552671', [{ variantId: 'v1', quantity: 2 }]))
  })

  test('canonical lines are sorted and typed', () => {
    expect(
      canonicalLines([
        { variantId: 'b', quantity: 1 },
        { productId: 'a', quantity: 3 },
      ]),
    ).toEqual(['p:a:3', 'v:b:1'])
  })
})

describe('money and discounts (minor units)', () => {
  test('percentage applies to the items subtotal, rounded half up', () => {
    expect(discountAmount('percentage', 1500, 1010)).toBe(152) // 151.5 → 152
    expect(discountAmount('percentage', 1500, 1009)).toBe(151) // 151.35 → 151
    expect(discountAmount('percentage', 1250, 2)).toBe(0) // 0.25 → 0
    expect(discountAmount('percentage', 2500, 2)).toBe(1) // 0.5 → 1
    expect(discountAmount('percentage', 10000, 999)).toBe(999)
  })

  test('fixed never takes the items below zero', () => {
    expect(discountAmount('fixed', 500, 3400)).toBe(500)
    expect(discountAmount('fixed', 5000, 3400)).toBe(3400)
  })

  test('a discount is never negative nor above the items subtotal', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('percentage' as const, 'fixed' as const),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1e9 }),
        (type, value, subtotal) => {
          const v = type === 'percentage' ? Math.min(value, 10_000) : value
          const d = discountAmount(type, v, subtotal)
          expect(d).toBeGreaterThanOrEqual(0)
          expect(d).toBeLessThanOrEqual(subtotal)
          expect(Number.isInteger(d)).toBe(true)
          expect(orderTotal(subtotal, 500, d)).toBeGreaterThanOrEqual(500)
        },
      ),
    )
  })

  test('minOrderAmount: equal qualifies, below does not, null always qualifies', () => {
    expect(meetsMinimum(3400, 3400)).toBe(true)
    expect(meetsMinimum(3399, 3400)).toBe(false)
    expect(meetsMinimum(0, null)).toBe(true)
  })

  test('total = items + shipping − discount', () => {
    expect(orderTotal(3400, 500, 340)).toBe(3560)
  })
})

describe('idempotency and numbering', () => {
  test('request hash ignores key order and undefined fields, not values', () => {
    expect(requestHash({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(
      requestHash({ b: { d: 'x', c: [1, 2] }, a: 1, z: undefined }),
    )
    expect(requestHash({ a: 1, b: { c: [2, 1] } })).not.toBe(requestHash({ a: 1, b: { c: [1, 2] } }))
    expect(canonicalJson({ b: 1, a: [null, 'x'] })).toBe('{"a":[null,"x"],"b":1}')
  })

  test('Idempotency-Key is 1–255 characters', () => {
    expect(parseIdempotencyKey(null)).toBeUndefined()
    expect(parseIdempotencyKey('k'.repeat(255))).toBe('k'.repeat(255))
    expect(() => parseIdempotencyKey('k'.repeat(256))).toThrow()
    expect(() => parseIdempotencyKey('')).toThrow()
  })

  test('order numbers are ORD- and six zero-padded digits', () => {
    expect(formatOrderNumber(1)).toBe('ORD-000001')
    expect(formatOrderNumber(123456)).toBe('ORD-123456')
  })
})
