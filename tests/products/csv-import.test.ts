/**
 * The catalog CSV import as the products module's verbs, without the panel: reading the bytes
 * (UTF-8 with or without a mark, UTF-16 with one; bad bytes, NUL and over-long records refused by
 * line), every fault of every line at once with what is expected, the dry run in slices agreeing
 * with the apply (the plan's cap and the slugs carried across slices), old → new values, and one
 * import per store at a time. The HTTP side is tests/panel/csv.test.ts.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeStore } from '../helpers/factories'
import { ctxFor } from '../../src/kernel/context'
import { createCategory } from '../../src/modules/categories'
import {
  BatchRefused,
  checkCatalogImport,
  createProduct,
  CsvFileRefused,
  DRY_RUN_SLICE,
  ImportAdmission,
  importCatalog,
  parseCatalogCsv,
  type ImportPlace,
} from '../../src/modules/products'
import { RateLimited } from '../../src/lib/errors'
import type { Plan } from '../../src/db/schema'

const t = appForFile({ freeMaxProducts: 150 })
const HEADER = 'name,slug,description,price,comparePrice,category,variant,variantPrice,stock,isActive'

function store(plan: Plan = 'pro') {
  const s = makeStore(t.deps, { plan })
  return ctxFor(t.deps, s, { kind: 'cli' })
}
const rowsOf = (lines: string[]) => parseCatalogCsv(new Blob([[HEADER, ...lines].join('\n')]))
const count = (storeId: string) =>
  t.deps.db.$client
    .query<{ n: number }, [string]>('SELECT count(*) AS n FROM products WHERE store_id = ?')
    .get(storeId)!.n

/** The refused places and what each expects, or the error's reason, in file order. */
async function refusals(run: () => Promise<unknown> | unknown): Promise<string[]> {
  try {
    await run()
  } catch (e) {
    if (!(e instanceof BatchRefused)) throw e
    return (e.problems as { key: ImportPlace; error: { details?: Record<string, unknown>; code?: string } }[])
      .map(({ key, error }) => {
        const d = error.details ?? {}
        return `${key.line}:${key.column ?? ''}:${String(d.expected ?? d.reason ?? error.code)}`
      })
      .sort()
  }
  throw new Error('nothing was refused')
}

describe('reading the bytes', () => {
  const text = [HEADER, 'Café,cafe,Crème brûlée,1,,,,,,'].join('\r\n')
  const utf16 = (s: string, bigEndian: boolean) => {
    const out = [bigEndian ? 0xfe : 0xff, bigEndian ? 0xff : 0xfe]
    for (const ch of s) {
      const c = ch.charCodeAt(0)
      out.push(bigEndian ? c >> 8 : c & 255, bigEndian ? c & 255 : c >> 8)
    }
    return new Uint8Array(out)
  }

  test('UTF-8 with and without its mark, UTF-16 LE and BE with theirs: the same rows', async () => {
    for (const bytes of [text, `\uFEFF${text}`, utf16(text, false), utf16(text, true)]) {
      const rows = await parseCatalogCsv(new Blob([bytes]))
      expect(rows.map((r) => [r.line, r.cells.name, r.cells.description])).toEqual([[2, 'Café', 'Crème brûlée']])
    }
  })

  const refusal = async (bytes: string | Uint8Array) => {
    try {
      await parseCatalogCsv(new Blob([bytes]))
    } catch (e) {
      if (e instanceof CsvFileRefused) return [e.problem, e.line, e.status]
      throw e
    }
    return undefined
  }

  test('Latin-1 bytes are refused naming the first line that is not UTF-8 (never turned into U+FFFD)', async () => {
    const enc = new TextEncoder()
    const latin1 = new Uint8Array([...enc.encode(`${HEADER}\nGood,good,,1,,,,,,\n`), 0x43, 0x61, 0x66, 0xe9, 0x0a])
    expect(await refusal(latin1)).toEqual(['encoding', 3, 400])
    // A UTF-16 file whose last unit is cut in half.
    const whole = utf16(text, false)
    expect(await refusal(whole.subarray(0, whole.length - 1))).toEqual(['encoding', 2, 400])
  })

  test('a NUL byte is refused naming its line', async () => {
    expect(await refusal([HEADER, 'A,aaa,,1,,,,,,', 'B\0,bbb,,1,,,,,,'].join('\n'))).toEqual(['nul', 3, 400])
  })

  test('a record over 64 KB is refused as "line N is longer than 64 KB", N where it starts', async () => {
    const long = [HEADER, 'A,aaa,,1,,,,,,', '', `B,bbb,"${'x'.repeat(70_000)}",1,,,,,,`, 'C,ccc,,1,,,,,,']
    expect(await refusal(long.join('\n'))).toEqual(['long', 4, 400])
    try {
      await parseCatalogCsv(new Blob([long.join('\n')]))
    } catch (e) {
      expect((e as Error).message).toBe('Line 4 is longer than 64 KB')
    }
    // A quote left open: the rest of the file is one cell, named by the line the quote opens on.
    const open = (n: number) =>
      [HEADER, 'A,aaa,,1,,,,,,', 'B,"bbb,,1,,,,,,', ...Array.from({ length: n }, () => 'C,ccc,,1,,,,,,')].join('\n')
    expect(await refusal(open(6000))).toEqual(['long', 3, 400])
    // Shorter than 64 KB, the open quote reaches the end of the file: not valid CSV, at the same line.
    expect(await refusal(open(30))).toEqual(['malformed', 3, 400])
  })
})

describe('every fault of every line, at once', () => {
  test('a line with four faults gives four, each with what is expected; other lines too', async () => {
    const ctx = store()
    const rows = await rowsOf([
      'Mug,mug,,-1,abc,Nowhere,,,1.5,yes please',
      'Cup,cup,,12.345,,,,,-3,maybe',
      'Bowl,bowl,,5,,,,,,',
    ])
    const want = [
      '2:category:not_found',
      '2:comparePrice:price',
      '2:isActive:boolean',
      '2:price:price',
      '2:stock:whole',
      '3:isActive:boolean',
      '3:price:decimals',
      '3:stock:whole',
    ]
    expect(await refusals(() => checkCatalogImport({ ctx, input: { rows } }))).toEqual(want)
    // The apply refuses exactly the same, and writes nothing.
    expect(await refusals(() => importCatalog({ ctx, input: { rows, dryRun: false } }))).toEqual(want)
    expect(count(ctx.store.id)).toBe(0)
  })

  test('the API schema’s faults come with the cells’ (a long name, a bad slug, a long variant name)', async () => {
    const ctx = store()
    const rows = await rowsOf([
      `${'N'.repeat(201)},Bad Slug!,,x,,,,,,`,
      `Shirt,shirt,,5,,,${'V'.repeat(101)},5,-1,true`,
    ])
    expect(await refusals(() => checkCatalogImport({ ctx, input: { rows } }))).toEqual([
      '2:name:out_of_range',
      '2:price:price',
      '2:slug:invalid_format',
      '3:stock:whole',
      '3:variant:out_of_range',
    ])
  })

  test('true or false in the panel’s languages: yes/no, sí/no, sim/não, 1/0', async () => {
    const ctx = store()
    const words = ['true', 'false', 'yes', 'no', 'sí', 'SI', 'sim', 'não', 'nao', '1', '0', ' Yes ', '']
    const rows = await rowsOf(words.map((w, i) => `P${i},p${i}-x,,1,,,,,,${w}`))
    const report = await checkCatalogImport({ ctx, input: { rows } })
    expect(report.create).toHaveLength(words.length)
    importCatalog({ ctx, input: { rows, dryRun: false } })
    const active = t.deps.db.$client
      .query<{ slug: string; a: number }, [string]>('SELECT slug, is_active AS a FROM products WHERE store_id = ?')
      .all(ctx.store.id)
    expect(words.map((_, i) => active.find((p) => p.slug === `p${i}-x`)!.a)).toEqual([
      1, 0, 1, 0, 1, 1, 1, 0, 0, 1, 0, 1, 1,
    ])
  })
})

describe('the dry run in slices', () => {
  test('turns of the event loop between slices; nothing written; the report is the apply’s', async () => {
    const ctx = store()
    const lines = Array.from({ length: 3 * DRY_RUN_SLICE + 7 }, (_, i) => `P${i},p${i}-x,,${1 + (i % 9)},,,,,${i},true`)
    const rows = await rowsOf(lines)
    let pauses = 0
    const report = await checkCatalogImport({ ctx, input: { rows }, pause: async () => void pauses++ })
    // At most DRY_RUN_SLICE products a slice (fewer when a slice's time runs out first).
    expect(pauses).toBeGreaterThanOrEqual(Math.ceil(lines.length / DRY_RUN_SLICE))
    expect(count(ctx.store.id)).toBe(0)
    expect(report).toEqual(importCatalog({ ctx, input: { rows, dryRun: true } }))
    expect(report.create).toHaveLength(lines.length)
  })

  test('the plan’s product cap and the slugs created are carried across slices', async () => {
    const ctx = store('free')
    createProduct({ ctx, input: { name: 'Already', slug: 'already', price: 1 } })
    // 160 new products on a plan of 150 with one already: the 20th and 130th have no slug and
    // names that make the same one ("mug"), in different slices; of the 159 others, 10 are over the cap.
    const lines = Array.from({ length: 160 }, (_, i) =>
      i === 19 ? 'Mug,,,1,,,,,,' : i === 129 ? 'MUG,,,1,,,,,,' : `P${i},p${i}-x,,1,,,,,,`,
    )
    const rows = await rowsOf(lines)
    const dry = await refusals(() => checkCatalogImport({ ctx, input: { rows } }))
    const apply = await refusals(() => importCatalog({ ctx, input: { rows, dryRun: false } }))
    expect(dry).toEqual(apply)
    expect(dry).toContain('131:slug:DUPLICATE_SLUG')
    expect(dry.filter((d) => d.endsWith('PLAN_REQUIRED'))).toHaveLength(10)
    expect(count(ctx.store.id)).toBe(1)
  })
})

describe('old → new', () => {
  test('each changed value as it is and as it will be, money with the currency’s decimals', async () => {
    const ctx = store()
    const drinks = createCategory({ ctx, input: { name: 'Drinks' } })
    createCategory({ ctx, input: { name: 'Food' } })
    createProduct({
      ctx,
      input: {
        name: 'Tee',
        slug: 'tee',
        price: 20,
        categoryId: drinks.id,
        variants: [
          { name: 'S', price: 20, stock: 5 },
          { name: 'M', price: 21.5 },
        ],
      },
    })
    const rows = await rowsOf(['Tee shirt,tee,,20,25,Food,S,20,7,true', 'Tee shirt,tee,,20,25,Food,L,23,,true'])
    const report = await checkCatalogImport({ ctx, input: { rows } })
    expect(report.update).toHaveLength(1)
    expect(report.update[0]!.changes).toEqual([
      { column: 'name', from: 'Tee', to: 'Tee shirt' },
      { column: 'comparePrice', from: '', to: '25.00' },
      { column: 'category', from: 'Drinks', to: 'Food' },
      { column: 'stock', variant: 'S', from: '5', to: '7' },
      { column: 'variant', from: '', to: 'L' },
      { column: 'variantPrice', variant: 'L', from: '', to: '23.00' },
      { column: 'variant', from: 'M', to: '' },
    ])
  })
})

describe('one import per store at a time', () => {
  test('a second place for the same store is refused with a retry time; another store is not affected', () => {
    const imports = new ImportAdmission()
    const release = imports.admit('store-a')
    expect(() => imports.admit('store-a')).toThrow(RateLimited)
    try {
      imports.admit('store-a')
    } catch (e) {
      expect((e as RateLimited).retryAfter).toBeGreaterThan(0)
    }
    const other = imports.admit('store-b')
    release()
    release()
    imports.admit('store-a')()
    other()
    expect(imports.isRunning('store-a') || imports.isRunning('store-b')).toBe(false)
  })
})
