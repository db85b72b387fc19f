/**
 * Money is integer minor units inside, major units at the edge. The
 * minor digits come from ISO 4217: USD 2, JPY 0, KWD 3.
 */
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { ValidationError } from '../../src/lib/errors'
import { isCurrency, minorDigits, percentOf, toMajor, toMajorOrNull, toMinor } from '../../src/lib/money'

const reasonOf = (fn: () => unknown) => {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError)
    return (err as ValidationError).details
  }
  throw new Error('expected a ValidationError')
}

describe('minorDigits / isCurrency', () => {
  test('ISO 4217 minor units', () => {
    expect(minorDigits('USD')).toBe(2)
    expect(minorDigits('EUR')).toBe(2)
    expect(minorDigits('JPY')).toBe(0)
    expect(minorDigits('KRW')).toBe(0)
    expect(minorDigits('KWD')).toBe(3)
    expect(minorDigits('BHD')).toBe(3)
  })
  test('isCurrency accepts known upper-case codes only', () => {
    expect(isCurrency('USD')).toBe(true)
    expect(isCurrency('usd')).toBe(false)
    expect(isCurrency('XYZ')).toBe(false)
    expect(isCurrency('US')).toBe(false)
  })
})

describe('toMinor', () => {
  test('converts per currency', () => {
    expect(toMinor(10, 'USD', 'price')).toBe(1000)
    expect(toMinor(1.5, 'USD', 'price')).toBe(150)
    expect(toMinor(1500, 'JPY', 'price')).toBe(1500)
    expect(toMinor(1.234, 'KWD', 'price')).toBe(1234)
    expect(toMinor(0, 'USD', 'price')).toBe(0)
  })

  test('absorbs binary float artefacts of genuine decimals', () => {
    // 19.99 * 100 === 1998.9999999999998 and 0.1 + 0.2 === 0.30000000000000004
    expect(19.99 * 100).not.toBe(1999)
    expect(toMinor(19.99, 'USD', 'price')).toBe(1999)
    expect(toMinor(0.1 + 0.2, 'USD', 'price')).toBe(30)
    expect(toMinor(4.35, 'USD', 'price')).toBe(435)
    expect(toMinor(1.001, 'KWD', 'price')).toBe(1001)
    expect(toMinor(99999999.99, 'USD', 'price')).toBe(9999999999)
  })

  test('every two-decimal amount round-trips exactly (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => {
        const major = cents / 100
        expect(toMinor(major, 'USD', 'price')).toBe(cents)
        expect(toMajor(toMinor(major, 'USD', 'price'), 'USD')).toBe(major)
      }),
    )
  })

  test('more decimals than the currency has → 400 invalid_format naming the field', () => {
    expect(reasonOf(() => toMinor(1.5, 'JPY', 'price'))).toEqual({ field: 'price', reason: 'invalid_format' })
    expect(reasonOf(() => toMinor(1.234, 'USD', 'variants[0].price'))).toEqual({
      field: 'variants[0].price',
      reason: 'invalid_format',
    })
    expect(reasonOf(() => toMinor(1.0001, 'KWD', 'comparePrice'))).toEqual({
      field: 'comparePrice',
      reason: 'invalid_format',
    })
    // Large amounts too: the tolerance must not grow into whole minor units.
    expect(reasonOf(() => toMinor(12345.678, 'USD', 'price'))).toEqual({ field: 'price', reason: 'invalid_format' })
    expect(reasonOf(() => toMinor(123456789.125, 'USD', 'price'))).toEqual({ field: 'price', reason: 'invalid_format' })
  })

  test('non-finite or unsafe amounts are refused', () => {
    expect(reasonOf(() => toMinor(Number.NaN, 'USD', 'price'))?.field).toBe('price')
    expect(reasonOf(() => toMinor(Infinity, 'USD', 'price'))?.field).toBe('price')
    expect(reasonOf(() => toMinor(1e20, 'USD', 'price'))).toEqual({ field: 'price', reason: 'out_of_range' })
  })
})

describe('toMajor', () => {
  test('divides by the currency factor', () => {
    expect(toMajor(1999, 'USD')).toBe(19.99)
    expect(toMajor(1500, 'JPY')).toBe(1500)
    expect(toMajor(1234, 'KWD')).toBe(1.234)
    expect(toMajor(5, 'USD')).toBe(0.05)
    expect(toMajorOrNull(null, 'USD')).toBeNull()
    expect(toMajorOrNull(250, 'USD')).toBe(2.5)
  })
})

describe('percentOf (basis points, half up)', () => {
  test('exact and rounded cases', () => {
    expect(percentOf(1000, 1000)).toBe(100) // 10 % of 10.00
    expect(percentOf(1999, 1000)).toBe(200) // 199.9 → 200
    expect(percentOf(1995, 1000)).toBe(200) // 199.5 → 200 (half up)
    expect(percentOf(1994, 1000)).toBe(199) // 199.4 → 199
    expect(percentOf(5, 5000)).toBe(3) // 2.5 → 3
    expect(percentOf(3, 5000)).toBe(2) // 1.5 → 2
    expect(percentOf(1, 4999)).toBe(0) // 0.4999 → 0
    expect(percentOf(0, 10000)).toBe(0)
    expect(percentOf(12345, 10000)).toBe(12345) // 100 %
  })

  test('matches exact rational rounding (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 1, max: 10_000 }), (minor, bp) => {
        const num = BigInt(minor) * BigInt(bp)
        const expected = Number((num * 2n + 10_000n) / 20_000n) // floor(x + 1/2) with x = num / 10000
        expect(percentOf(minor, bp)).toBe(expected)
      }),
    )
  })
})
