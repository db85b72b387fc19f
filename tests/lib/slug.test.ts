/** Contract: a slug is 3–50 characters of a-z, 0-9 and inner hyphens; derived from a name when absent. */
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { isSlug, slugify, SLUG_PATTERN } from '../../src/lib/slug'

describe('isSlug', () => {
  test.each(['abc', 'a-b', 'mug-2', 'summer-sale-2026', '123', 'a'.repeat(50), 'a1-b2-c3'])('accepts %p', (s) => {
    expect(isSlug(s)).toBe(true)
  })
  test.each(['', 'ab', 'a'.repeat(51), '-abc', 'abc-', 'a--b', 'Abc', 'a_b', 'a b', 'crème', 'a.b', 'ab/c'])(
    'refuses %p',
    (s) => {
      expect(isSlug(s)).toBe(false)
    },
  )
  test('the schema pattern agrees with isSlug on length-valid strings', () => {
    const re = new RegExp(SLUG_PATTERN)
    for (const s of ['abc', 'a--b', '-ab', 'ab-', 'a-b-c', 'ABC', 'x_y']) {
      expect(re.test(s)).toBe(isSlug(s))
    }
  })
})

describe('slugify', () => {
  test('lower-cases, folds accents and joins words with single hyphens', () => {
    expect(slugify('Crème Brûlée')).toBe('creme-brulee')
    expect(slugify('  Café   con  Leche!! ')).toBe('cafe-con-leche')
    expect(slugify('Ñandú & Pingüino')).toBe('nandu-pinguino')
    expect(slugify('Straße Größe')).toBe('strasse-grosse')
    expect(slugify('T-Shirt -- XL')).toBe('t-shirt-xl')
    expect(slugify('Mug 2.0')).toBe('mug-2-0')
    expect(slugify('Æble Øl Łódź')).toBe('aeble-ol-lodz')
  })

  test('cuts at 50 characters without a trailing hyphen', () => {
    const s = slugify(`${'a'.repeat(49)} bcd`)
    expect(s).toBe('a'.repeat(49))
    expect(slugify('word '.repeat(30)).length).toBeLessThanOrEqual(50)
    expect(isSlug(slugify('word '.repeat(30)))).toBe(true)
  })

  test('a too-short or non-Latin name still gives a valid slug', () => {
    for (const name of ['TV', 'x', '', '!!!', 'Кофе', '茶']) {
      const s = slugify(name)
      expect(isSlug(s)).toBe(true)
    }
    expect(slugify('TV')).toStartWith('tv-')
  })

  test('always returns a valid slug (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (name) => {
        expect(isSlug(slugify(name))).toBe(true)
      }),
      { numRuns: 500 },
    )
  })
})
