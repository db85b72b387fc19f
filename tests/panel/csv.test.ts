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
  test('the columns, a row per variant, major units, category by name, cells neutralised; no other store', async () => {
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

  test('a line break in a cell: the cell is quoted, the line after it guarded; the import gives it back', async () => {
    const { b, ctx, key } = await shop()
    const description = "Hand made.\n=cmd|' /C calc'!A0\r\n+1 and\r@lone CR"
    createProduct({ ctx, input: { name: 'Mug', slug: 'mug', description, price: 8 } })
    const csv = await exportOf(b)
    expect(csv).toContain(`Mug,mug,"Hand made.\n'=cmd|' /C calc'!A0\r\n'+1 and\r'@lone CR",8,,,,,,true\r\n`)
    // No physical line of the file starts with a formula trigger.
    for (const line of csv.split(/\r\n|\r|\n/)) expect(line).not.toMatch(/^[=+\-@\t]/)
    const page = await upload(b, csv)
    expect(page.text).toContain('1 product unchanged')
    expect((await productsOf(key))[0]).toMatchObject({ slug: 'mug', name: 'Mug' })
    expect((await t.api.get('/api/v1/products?limit=1', { key }))[1].data[0].description).toBe(description)
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

  test('creates by new slug, a variant a line, categories by name or slug; a typed formula stays text', async () => {
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
    expect(page.text).toContain('Línea 5, columna category: No hay ninguna categoría llamada «Nowhere».')
    expect(page.text).toContain('Línea 6, columna stock: Escribe un número entero de 0 o más.')
    expect(page.text).toContain('Línea 7, columna stock: Escribe un número entero de 0 o más.')
    expect(page.text).toContain('Línea 8, columna price: Escribe un precio de 0 o más.')
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

  test('the upload is streamed: its form token is read from the body; a post without it changes nothing', async () => {
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

  test('the apply plans again in its transaction: a change since the dry run is caught, nothing written', async () => {
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
    expect(res.text).toContain('Line 3, column category: No category named “Drinks”.')
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

describe('CSV import: every fault at once, bytes, one at a time', () => {
  test('a line with four faults lists four, each saying what is expected; yes/no accepted', async () => {
    const { b, key } = await shop()
    const page = await upload(b, [HEADER, 'Mug,mug,,-1,,Nowhere,,,1.5,maybe', 'Cup,cup,,3,,,,,2,yes'].join('\n'))
    expect(page.status).toBe(200)
    expect(page.text).toContain('1 line refused')
    expect(page.text).toContain('Line 2, column category: No category named “Nowhere”.')
    expect(page.text).toContain('Line 2, column isActive: Enter true or false')
    expect(page.text).toContain('Line 2, column price: Enter a price of 0 or more.')
    expect(page.text).toContain('Line 2, column stock: Enter a whole number of 0 or more.')
    expect(page.text.match(/<li>Line 2, column/g)).toHaveLength(4)
    expect(await productsOf(key)).toEqual([])
  })

  test('the same in Portuguese', async () => {
    const { b } = await shop({ headers: { 'accept-language': 'pt-BR' } })
    const page = await upload(b, [HEADER, 'Mug,mug,,-1,,Nowhere,,,1.5,maybe'].join('\n'))
    expect(page.text).toContain('Linha 2, coluna stock: Digite um número inteiro de 0 ou mais.')
    expect(page.text).toContain('Linha 2, coluna price: Digite um preço de 0 ou mais.')
    expect(page.text).toContain('Linha 2, coluna isActive: Digite true ou false')
    expect(page.text).toContain('Linha 2, coluna category: Não há nenhuma categoria chamada “Nowhere”.')
  })

  test('the dry run shows each changed value old → new', async () => {
    const { b, store, cat } = await shop()
    await seedCatalog(store.id, cat.id)
    const csv = (await exportOf(b))
      .replace('Drinks,M,21.5,', 'Drinks,M,23,')
      .replace('Drinks,S,20,5,', 'Drinks,S,20,9,')
    const page = await upload(b, csv)
    expect(page.text).toContain('1 product to update')
    expect(page.text).toContain('<li>variantPrice (M): 21.50 → 23.00</li>')
    expect(page.text).toContain('<li>stock (S): 5 → 9</li>')
  })

  test('bytes that are not UTF-8, a NUL byte, a record over 64 KB: 400 naming the line; UTF-16 is read', async () => {
    const { b, key } = await shop()
    const enc = new TextEncoder()
    const latin1 = new Blob([enc.encode(`${HEADER}\nGood,good,,1,,,,,,\n`), new Uint8Array([0x43, 0x61, 0x66, 0xe9])])
    const bad = await upload(b, latin1)
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('Line 3 is not UTF-8. Save the file as “CSV UTF-8” and check it again.')
    const nul = await upload(b, [HEADER, 'A,aaa,,1,,,,,,', 'B\0,bbb,,1,,,,,,'].join('\n'))
    expect(nul.status).toBe(400)
    expect(nul.text).toContain('Line 3 holds a NUL byte')
    const long = await upload(b, [HEADER, `A,aaa,"${'x'.repeat(70_000)}",1,,,,,,`].join('\n'))
    expect(long.status).toBe(400)
    expect(long.text).toContain('Line 2 is longer than 64 KB.')
    expect(long.text).not.toContain('not valid CSV')
    const text = `\uFEFF${[HEADER, 'Café,cafe,,1,,,,,,'].join('\r\n')}`
    const utf16 = new Uint8Array(text.length * 2)
    for (let i = 0; i < text.length; i++) utf16[i * 2] = text.charCodeAt(i) & 255
    for (let i = 0; i < text.length; i++) utf16[i * 2 + 1] = text.charCodeAt(i) >> 8
    const ok = await upload(b, new Blob([utf16]))
    expect(ok.text).toContain('1 product to create')
    await b.submit('/admin/products/import/apply', applyFields(ok.text))
    expect((await productsOf(key)).map((p) => p.name)).toEqual(['Café'])
  })

  test('one import per store at a time: a second meanwhile → 429 with Retry-After; another store goes on', async () => {
    const mine = await shop()
    const other = await shop()
    const first = await upload(mine.b, [HEADER, 'New,new-one,,5,,,,,1,true'].join('\n'))
    // An import of this store is running (its dry run or apply holds the store's place).
    const release = t.deps.imports.admit(mine.store.id)
    const busy = await upload(mine.b, [HEADER, 'Other,other-one,,5,,,,,1,true'].join('\n'))
    expect(busy.status).toBe(429)
    expect(Number(busy.res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(busy.text).toContain('Another import of this store is running. Try again in a few seconds.')
    const apply = await mine.b.submit('/admin/products/import/apply', applyFields(first.text))
    expect(apply.status).toBe(429)
    expect((await upload(other.b, [HEADER, 'Theirs,theirs,,5,,,,,1,true'].join('\n'))).text).toContain(
      '1 product to create',
    )
    expect(await productsOf(mine.key)).toEqual([])
    release()
    expect((await mine.b.submit('/admin/products/import/apply', applyFields(first.text))).status).toBe(303)
    expect((await productsOf(mine.key)).map((p) => p.slug)).toEqual(['new-one'])
    expect(t.deps.imports.isRunning(mine.store.id)).toBe(false)
  })
})
