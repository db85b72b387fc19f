/**
 * The panel's words (src/panel/words): one catalogue per language, the English one's shape in
 * each. The type check refuses a catalogue with a word missing, a word English lacks or a
 * sentence where a word belongs (the `@ts-expect-error` lines below fail `bun run typecheck` the
 * day it stops refusing them); at run time every language has every word, none empty. A word
 * said alike in every language is one key, and no file of the panel outside src/panel/words
 * keeps words of its own.
 */
import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import path from 'node:path'
import { PANEL_LANGUAGES, panelWords, type PanelLanguage, type Words } from '../../src/panel/words'
import { es } from '../../src/panel/words/es'
import { ROOT } from '../helpers/import-graph'

type Leaf = string | ((...args: never[]) => unknown)

/** Every word of a catalogue by its path (`common.save`, `orders.status.pending`). */
function leaves(value: unknown, at = ''): Map<string, Leaf> {
  const found = new Map<string, Leaf>()
  if (typeof value === 'string' || typeof value === 'function') found.set(at, value as Leaf)
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) for (const [p, l] of leaves(v, at ? `${at}.${k}` : k)) found.set(p, l)
  else found.set(at, value as Leaf)
  return found
}

/** A sentence with a value said with sample values (numbers read as numbers and as text alike). */
const said = (l: Leaf): unknown => (typeof l === 'function' ? (l as (...a: number[]) => unknown)(2, 3, 4) : l)

describe('every language has every word', () => {
  const english = leaves(panelWords('en'))

  test('the English catalogue has hundreds of words, in namespaces', () => {
    expect(english.size).toBeGreaterThan(600)
    expect(english.get('common.save')).toBe('Save')
    expect(Object.keys(panelWords('en'))).toContain('orders')
  })

  for (const lang of PANEL_LANGUAGES.filter((l): l is Exclude<PanelLanguage, 'en'> => l !== 'en')) {
    test(`${lang}: the same words as English, each said and none empty`, () => {
      const words = leaves(panelWords(lang))
      expect([...words.keys()].sort()).toEqual([...english.keys()].sort())
      for (const [at, word] of words) {
        const english_ = english.get(at)!
        expect({ at, kind: typeof word }).toEqual({ at, kind: typeof english_ })
        if (typeof word === 'function') expect({ at, takes: word.length }).toEqual({ at, takes: english_.length })
        const text = said(word)
        expect({ at, text: typeof text === 'string' && text.trim().length > 0 }).toEqual({ at, text: true })
      }
    })

    test(`${lang}: its words are its own (it is not English with a few words changed)`, () => {
      const words = leaves(panelWords(lang))
      const same = [...words].filter(([at, w]) => typeof w === 'string' && w === english.get(at))
      // Names that read alike (Webhooks, Total, App, URL…) are a handful, not the catalogue.
      expect(same.length).toBeLessThan(english.size / 20)
    })
  }
})

describe('the type check refuses an incomplete catalogue', () => {
  test('a missing word, an extra word and a sentence for a word do not compile', () => {
    const { save: _save, ...withoutSave } = es.common
    // @ts-expect-error "save" is missing from this language's common words
    const missing: Words['common'] = withoutSave
    // @ts-expect-error "saveAll" is a word English does not have
    const extra: Words['common'] = { ...es.common, saveAll: 'Guardar todo' }
    // @ts-expect-error a word is a string, not a sentence of a value
    const wrongKind: Words['common'] = { ...es.common, save: (n: number) => `${n}` }
    // @ts-expect-error a whole namespace missing from a language
    const noOrders: Words = { ...es, orders: undefined }
    expect(Object.keys(missing)).not.toContain('save')
    expect(Object.keys(extra)).toContain('saveAll')
    expect(typeof wrongKind.save).toBe('function')
    expect(noOrders.orders).toBeUndefined()
  })
})

describe('one word, one key', () => {
  /**
   * Words said alike in en, es and pt that still have two keys, each for a reason: a status is
   * its record's (an order's, a delivery's, a review's: genders differ in other words), and an
   * order's line table is the storefront's own, shared with the customer's order page.
   */
  const ALLOWED = new Set([
    'orders.status.pending webhooks.deliveryStatus.pending reviews.status.pending',
    'orders.status.delivered webhooks.deliveryStatus.succeeded',
    'common.price orderLines.price',
    'common.product orderLines.product',
  ])

  test('no word said alike in every language has two keys, beyond the few that say why', () => {
    const [en, es_, pt] = PANEL_LANGUAGES.map((l) => leaves(panelWords(l)))
    const byText = new Map<string, string[]>()
    for (const [at, word] of en!) {
      if (typeof word !== 'string') continue
      const text = [word, es_!.get(at), pt!.get(at)].join(' | ')
      byText.set(text, [...(byText.get(text) ?? []), at])
    }
    const repeated = [...byText.values()].filter((keys) => keys.length > 1).map((keys) => keys.join(' '))
    expect(repeated.filter((r) => !ALLOWED.has(r))).toEqual([])
    expect(panelWords('es').common.save).toBe('Guardar')
  })
})

describe('the words live in one place', () => {
  test('no panel file outside src/panel/words keeps a catalogue of its own', async () => {
    const own: string[] = []
    const table = /^\s*(?:en|es|pt)\s*:\s*\{|Record<PanelLanguage,|\b(?:const|let)\s+(?:en|es|pt)\b\s*[:=]/m
    for await (const file of new Glob('src/panel/**/*.ts').scan(ROOT)) {
      if (file.startsWith('src/panel/words/')) continue
      if (table.test(await Bun.file(path.join(ROOT, file)).text())) own.push(file)
    }
    expect(own).toEqual([])
  })
})
