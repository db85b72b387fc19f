/**
 * The panel's catalog CSV over HTTP: export (contract columns, one row per variant,
 * money in major units, formula cells neutralised), import (dry run with an error per line, then
 * all rows in one transaction or none), the round trip that changes nothing, the file's bounds
 * (wrong header, a 50,000-row file, a body over 5 MB), roles and another store.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeKey } from '../helpers/factories'
import { makeMember, makeOwnerShop, ORIGIN, PanelClient, signIn, type Page } from '../helpers/panel'
import { ctxFor } from '../../src/kernel/context'
import { createProduct } from '../../src/modules/products/service'
import { createCategory } from '../../src/modules/categories'
import { importCatalog, parseCatalogCsv } from '../../src/modules/products'
import { getStore } from '../../src/modules/platform-stores/service'

const client = (headers: Record<string, string> = {}) => new PanelClient((r) => t.app.handle(r), undefined, headers)

const t = appForFile({ freeMaxProducts: 3 })

const HEADER = 'name,slug,description,price,comparePrice,category,variant,variantPrice,stock,isActive'
const ctxOf = (storeId: string) =>
  ctxFor(t.deps, getStore({ ctx: { db: t.deps.db }, input: { id: storeId } })!, { kind: 'cli' })

async function shop(opts: { plan?: 'free' | 'pro'; headers?: Record<string, string> } = {}) {
  const s = await makeOwnerShop(t.deps, { plan: opts.plan ?? 'pro' })
  const b = client(opts.headers)
  await signIn(b, s.email)
  const ctx = ctxOf(s.store.id)
  const cat = createCategory({ ctx, input: { name: 'Drinks' } })
  return { ...s, b, ctx, cat, key: makeKey(t.deps, s.store.id) }
}

async function seedCatalog(storeId: string, categoryId: string) {
  const ctx = ctxOf(storeId)
  const tee = createProduct({
    ctx,
    input: {
      name: 'Tee',
      slug: 'tee',
      price: 20,
      comparePrice: 25,
      description: 'Soft, "cotton"\nline two',
      categoryId,
      variants: [
        { name: 'S', price: 20, stock: 5 },
        { name: 'M', price: 21.5 },
      ],
    },
  })
  const evil = createProduct({
    ctx,
    input: {
      name: '=HYPERLINK("http://evil.example","click")',
      slug: 'evil',
      description: '+1 call',
      price: 3,
      stock: 0,
      isActive: false,
    },
  })
  const more = createProduct({
    ctx,
    input: { name: '@SUM(A1)', slug: 'at-sum', description: '-minus\tand\rcr', price: 4.5, stock: 7 },
  })
  // Outer spaces the API kept: the import reads names trimmed, and that is no change.
  const spaced = createProduct({
    ctx,
    input: { name: ' Spaced ', slug: 'spaced', price: 1, variants: [{ name: 'One ', price: 1 }] },
  })
  return { tee, evil, more, spaced }
}

const cookie = (b: PanelClient) => [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ')

/** The import form's multipart post, as the browser sends it. */
async function upload(b: PanelClient, csv: string | Blob, name = 'catalog.csv'): Promise<Page> {
  await b.get('/admin/products/import')
  const form = new FormData()
  form.append('_csrf', b.formToken() ?? '')
  form.append('file', new File([csv], name, { type: 'text/csv' }))
  const res = await t.app.handle(
    new Request(`${ORIGIN}/admin/products/import`, {
      method: 'POST',
      body: form,
      headers: { ...b.headers, origin: ORIGIN, cookie: cookie(b) },
    }),
  )
  const page = { res, status: res.status, text: await res.text(), location: res.headers.get('location') }
  b.last = page
  return page
}

const applyFields = (text: string) => ({
  id: /name="id" value="([^"]+)"/.exec(text)![1]!,
  hash: /name="hash" value="([^"]+)"/.exec(text)![1]!,
})
const exportOf = async (b: PanelClient) => (await b.get('/admin/products/export.csv')).text
const productsOf = async (key: string) =>
  (await t.api.get('/api/v1/products?isActive=all&limit=100', { key }))[1].data as {
    name: string
    slug: string
    price: number
    updatedAt: string
    stock: number | null
    variants: { name: string; price: number; stock: number | null }[]
  }[]

describe('CSV export', () => {
  test('contract columns, a row per variant, major units, category by name, cells neutralised; another store absent', async () => {
    const { b, store, cat } = await shop()
    await seedCatalog(store.id, cat.id)
    const other = await shop()
    await seedCatalog(other.store.id, other.cat.id)
    createProduct({ ctx: other.ctx, input: { name: 'Not mine', slug: 'not-mine', price: 1 } })
    const res = await b.get('/admin/products/export.csv')
    expect(res.status).toBe(200)
    expect(res.res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.res.headers.get('content-disposition')).toBe(`attachment; filename="${store.slug}-products.csv"`)
    const lines = res.text.replace(/^\uFEFF/, '').split('\r\n')
    expect(lines[0]).toBe(HEADER)
    expect(res.text).toContain('Tee,tee,"Soft, ""cotton""\nline two",20,25,Drinks,S,20,5,true\r\n')
    expect(res.text).toContain('Tee,tee,"Soft, ""cotton""\nline two",20,25,Drinks,M,21.5,,true\r\n')
    // Every cell a spreadsheet would run as a formula starts with ' (=, +, -, @, tab, CR).
    expect(res.text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")",evil,'+1 call,3,,,,,0,false\r\n`)
    expect(res.text).toContain(`'@SUM(A1),at-sum,"'-minus\tand\rcr",4.5,,,,,7,true\r\n`)
    expect(res.text).not.toContain('Not mine')
    expect(res.text.split('\r\n').filter((l) => l.startsWith('Tee,')).length).toBe(2)
  })

  test('a viewer may export (it is a read)', async () => {
    const { store } = await shop()
    const viewer = await makeMember(t.deps, store.id, 'viewer')
    const v = client()
    await signIn(v, viewer.email)
    expect((await v.get('/admin/products/export.csv')).status).toBe(200)
  })
})

describe('CSV import', () => {
  test('round trip: export then import the same file → 0 to create, 0 to update, nothing written', async () => {
    const { b, store, cat, key } = await shop()
    await seedCatalog(store.id, cat.id)
    const csv = await exportOf(b)
    const before = await productsOf(key)
    const page = await upload(b, csv)
    expect(page.status).toBe(200)
    expect(page.text).toContain('0 products to create')
    expect(page.text).toContain('0 products to update')
    expect(page.text).toContain('4 products unchanged')
    expect(page.text).toContain('Nothing to change: the file matches the catalog.')
    expect(page.text).not.toContain('Apply the import')
    // The apply itself (what the button would run) writes nothing either: not a row, not an activity line.
    const activity = () =>
      t.deps.db.$client
        .query<{ n: number }, [string]>('SELECT count(*) AS n FROM activity WHERE store_id = ?')
        .get(store.id)!.n
    const lines = activity()
    const report = importCatalog({
      ctx: ctxOf(store.id),
      input: { rows: await parseCatalogCsv(new Blob([csv])), dryRun: false },
    })
    expect(report).toMatchObject({ rows: 5, create: [], update: [], unchanged: 4 })
    expect(await productsOf(key)).toEqual(before)
    expect(activity()).toBe(lines)
    // The formula-looking names came back exactly.
    expect(before.map((p) => p.name).sort()).toEqual([
      ' Spaced ',
      '=HYPERLINK("http://evil.example","click")',
      '@SUM(A1)',
      'Tee',
    ])
  })

  test('change one price in the file → dry run shows 1 update, apply writes it, the API sees it', async () => {
    const { b, store, cat, key } = await shop()
    await seedCatalog(store.id, cat.id)
    const csv = (await exportOf(b)).replace('Drinks,M,21.5,', 'Drinks,M,23,')
    const page = await upload(b, csv)
    expect(page.text).toContain('1 product to update')
    expect(page.text).toContain('Tee (line 2): changes variantPrice')
    const res = await b.submit('/admin/products/import/apply', applyFields(page.text))
    expect(res.status).toBe(303)
    expect(res.location).toBe('/admin/products/import?done=imported&c=0&u=1')
    expect((await b.get(res.location!)).text).toContain('Imported: 0 created, 1 updated.')
    const tee = (await productsOf(key)).find((p) => p.slug === 'tee')!
    expect(tee.variants.map((v) => [v.name, v.price, v.stock])).toEqual([
      ['S', 20, 5],
      ['M', 23, null],
    ])
    // The staged file is used once.
    expect((await b.submit('/admin/products/import/apply', applyFields(page.text))).status).toBe(409)
  })

  test('creates by new slug, a variant per line, categories by name or slug; a hand-written formula stays text', async () => {
    const { b, key } = await shop()
    const csv = [
      HEADER,
      'Lemonade,lemonade,,3.5,,drinks,Small,3.5,10,true',
      'Lemonade,lemonade,,3.5,,drinks,Large,5,,true',
      '=cmd|calc,formula,,2,,Drinks,,,,',
    ].join('\n')
    const page = await upload(b, csv)
    expect(page.text).toContain('2 products to create')
    await b.submit('/admin/products/import/apply', applyFields(page.text))
    const all = await productsOf(key)
    expect(all.find((p) => p.slug === 'lemonade')!.variants.map((v) => [v.name, v.price, v.stock])).toEqual([
      ['Small', 3.5, 10],
      ['Large', 5, null],
    ])
    expect(all.find((p) => p.slug === 'formula')).toMatchObject({ name: '=cmd|calc', stock: null })
  })

  test('bad lines: each refused with its line number, in the person language; nothing written', async () => {
    const { b, key } = await shop({ headers: { 'accept-language': 'es' } })
    const csv = [
      HEADER,
      'Good,good,,5,,,,,1,true',
      'Dup,dup,,5,,,A,5,1,true',
      'Dup,dup,,6,,,B,5,1,true',
      'Cat,cat-x,,5,,Nowhere,,,1,true',
      'Neg,neg,,5,,,,,-1,true',
      'Half,half,,5,,,,,1.5,true',
      'Price,price-x,,abc,,,,,,true',
      'Cmp,cmp,,5,4,,,,,true',
      'Short,short',
    ].join('\r\n')
    const page = await upload(b, csv)
    expect(page.status).toBe(200)
    expect(page.text).toContain('7 líneas rechazadas')
    expect(page.text).toContain('Línea 4, columna price: La línea 3 tiene el mismo slug con otros datos del producto.')
    expect(page.text).toContain('Línea 5, columna category: Ninguna categoría de esta tienda tiene este nombre o slug.')
    expect(page.text).toContain('Línea 6, columna stock: Escribe 0 o más.')
    expect(page.text).toContain('Línea 7, columna stock: Escribe un número.')
    expect(page.text).toContain('Línea 8, columna price: Escribe un número.')
    expect(page.text).toContain('Línea 9, columna comparePrice: El precio de comparación debe ser mayor que el precio.')
    expect(page.text).toContain('Línea 10: Esta línea no tiene una celda por columna.')
    expect(page.text).not.toContain('Aplicar la importación')
    expect(await productsOf(key)).toEqual([])
  })

  test('a variant named twice and a product line mixed with variant lines are refused', async () => {
    const { b } = await shop()
    const page = await upload(
      b,
      [HEADER, 'A,aaa,,5,,,S,5,1,true', 'A,aaa,,5,,,S,5,1,true', 'B,bbb,,5,,,,,1,true', 'B,bbb,,5,,,X,5,1,true'].join(
        '\n',
      ),
    )
    expect(page.text).toContain('Line 3, column variant: This variant is already on line 2.')
    expect(page.text).toContain(
      'Line 5, column variant: Line 4 has the same slug; a product without variants has a single line.',
    )
  })

  test('the free plan cap: the lines past it are refused with the upgrade link; nothing created', async () => {
    const { b, key } = await shop({ plan: 'free' })
    const rows = [1, 2, 3, 4, 5].map((i) => `P${i},p-${i}xx,,5,,,,,1,true`)
    const page = await upload(b, [HEADER, ...rows].join('\n'))
    expect(page.text).toContain('Line 5: Your plan does not allow this.')
    expect(page.text).toContain('Line 6: Your plan does not allow this.')
    expect(page.text).toContain('href="https://storefront.example/billing/upgrade"')
    expect(await productsOf(key)).toEqual([])
  })

  test('broken quoting → the file is refused with the line it breaks at', async () => {
    const { b } = await shop()
    const page = await upload(
      b,
      [HEADER, 'Good,good-one,,5,,,,,1,true', 'Bad,"bad,,5,,,,,1,true', 'More,more,,5,,,,,1,true'].join('\n'),
    )
    expect(page.status).toBe(400)
    expect(page.text).toMatch(/The file is not valid CSV near line \d+ \(check its quotes\)\./)
  })

  test('wrong header → one clear error naming the expected columns', async () => {
    const { b } = await shop()
    const page = await upload(b, 'name,sku,price\nA,1,2\n')
    expect(page.status).toBe(400)
    expect(page.text).toContain(`The first line must name exactly these columns: ${HEADER.replaceAll(',', ', ')}.`)
    expect(page.text).toContain('aria-describedby="file-error" aria-invalid="true"')
  })

  test('a 50,000-row file is refused past 10,000 rows, nothing written; a body over 5 MB → 413', async () => {
    const { b, key } = await shop()
    const rows = Array.from({ length: 50_000 }, (_, i) => `P${i},p${i}-x,,1,,,,,,true`)
    const big = [HEADER, ...rows].join('\n')
    expect(big.length).toBeLessThan(5 * 1024 * 1024)
    const page = await upload(b, big)
    expect(page.status).toBe(400)
    expect(page.text).toContain('The file has more than 10,000 rows. Split it into smaller files.')
    expect(await productsOf(key)).toEqual([])
    const huge = await upload(b, new Blob([HEADER, '\n', 'x'.repeat(5 * 1024 * 1024 + 100 * 1024)]))
    expect(huge.status).toBe(413)
    expect(huge.text).toContain('The file is larger than 5 MB. Split it into smaller files.')
  })

  test('the upload is streamed: its form token is checked from the body, and a post without it changes nothing', async () => {
    const { b, key } = await shop()
    await b.get('/admin/products/import')
    const form = new FormData()
    form.append(
      'file',
      new File([[HEADER, 'Sneaky,sneaky,,5,,,,,1,true'].join('\n')], 'catalog.csv', { type: 'text/csv' }),
    )
    const res = await t.app.handle(
      new Request(`${ORIGIN}/admin/products/import`, {
        method: 'POST',
        body: form,
        headers: { origin: ORIGIN, cookie: cookie(b) },
      }),
    )
    expect(res.status).toBe(403)
    expect(await res.text()).not.toContain('Check before importing')
    // From another origin, even with the token: refused by the gate before the body is read.
    const forged = new FormData()
    forged.append('_csrf', b.formToken() ?? '')
    forged.append('file', new File(['x'], 'catalog.csv'))
    const cross = await t.app.handle(
      new Request(`${ORIGIN}/admin/products/import`, {
        method: 'POST',
        body: forged,
        headers: { origin: 'https://evil.example', cookie: cookie(b) },
      }),
    )
    expect(cross.status).toBe(403)
    expect(await productsOf(key)).toEqual([])
  })

  test('semicolon files (a comma-decimal spreadsheet) and quoted multi-line cells are read', async () => {
    const { b, key } = await shop()
    const page = await upload(
      b,
      [
        'name;slug;description;price;comparePrice;category;variant;variantPrice;stock;isActive',
        'Café;cafe;"one\ntwo; three";12,50;;;;;4;true',
      ].join('\r\n'),
    )
    expect(page.text).toContain('1 product to create')
    await b.submit('/admin/products/import/apply', applyFields(page.text))
    expect((await productsOf(key))[0]).toMatchObject({ name: 'Café', price: 12.5, stock: 4 })
  })

  test('the apply plans again inside its transaction: a change since the dry run is caught, nothing written', async () => {
    const { b, key, ctx } = await shop()
    const page = await upload(b, [HEADER, 'New,new-one,,5,,,,,1,true', 'Tea,tea-x,,5,,Drinks,,,1,true'].join('\n'))
    expect(page.text).toContain('2 products to create')
    // Meanwhile someone renames the category the file names.
    const cat = t.deps.db.$client
      .query<{ id: string }, [string]>('SELECT id FROM categories WHERE store_id = ?')
      .get(ctx.store.id)!
    t.deps.db.$client.run("UPDATE categories SET name = 'Beverages', slug = 'beverages' WHERE id = ?", [cat.id])
    const res = await b.submit('/admin/products/import/apply', applyFields(page.text))
    expect(res.status).toBe(409)
    expect(res.text).toContain('Line 3, column category: No category of this store has this name or slug.')
    expect(await productsOf(key)).toEqual([])
  })

  test('a staged file opens only for its session and store, with its hash', async () => {
    const { b, store } = await shop()
    const page = await upload(b, [HEADER, 'New,new-two,,5,,,,,1,true'].join('\n'))
    const fields = applyFields(page.text)
    expect((await b.submit('/admin/products/import/apply', { ...fields, hash: '0'.repeat(64) })).status).toBe(409)
    const staff = await makeMember(t.deps, store.id, 'staff')
    const s = client()
    await signIn(s, staff.email)
    await s.get('/admin/products/import')
    const res = await s.submit('/admin/products/import/apply', fields)
    expect(res.status).toBe(409)
    expect(res.text).toContain('This check has expired or was replaced by a newer one.')
    // Its own session still can.
    expect((await b.submit('/admin/products/import/apply', fields)).status).toBe(303)
  })

  test('staff may import; a viewer is refused the page and a hand-made post', async () => {
    const { store, key } = await shop()
    const staff = await makeMember(t.deps, store.id, 'staff')
    const s = client()
    await signIn(s, staff.email)
    const page = await upload(s, [HEADER, 'Staffed,staffed,,5,,,,,1,true'].join('\n'))
    expect((await s.submit('/admin/products/import/apply', applyFields(page.text))).status).toBe(303)
    expect((await productsOf(key)).map((p) => p.slug)).toEqual(['staffed'])

    const viewer = await makeMember(t.deps, store.id, 'viewer')
    const v = client()
    await signIn(v, viewer.email)
    expect((await v.get('/admin/products/import')).status).toBe(403)
    await v.get('/admin/products')
    const refused = await upload(v, [HEADER, 'Viewer,viewer-x,,5,,,,,1,true'].join('\n'))
    expect(refused.status).toBe(403)
    expect((await v.get('/admin/products')).text).not.toContain('href="/admin/products/import"')
    expect((await productsOf(key)).map((p) => p.slug)).toEqual(['staffed'])
  })

  test("a slug of another store's product creates one in this store; the other is untouched", async () => {
    const mine = await shop()
    const other = await shop()
    createProduct({ ctx: other.ctx, input: { name: 'Shared', slug: 'shared', price: 9 } })
    const page = await upload(mine.b, [HEADER, 'Shared,shared,,1,,,,,1,true'].join('\n'))
    expect(page.text).toContain('1 product to create')
    await mine.b.submit('/admin/products/import/apply', applyFields(page.text))
    expect((await productsOf(other.key))[0]).toMatchObject({ slug: 'shared', price: 9 })
    expect((await productsOf(mine.key))[0]).toMatchObject({ slug: 'shared', price: 1 })
  })
})
