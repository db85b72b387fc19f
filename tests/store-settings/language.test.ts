/**
 * Store `language` (es | en | pt, default en): read, partial
 * update, validation, default WhatsApp template per language.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile, expectStatus } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { makeCatalog, orderBody } from '../helpers/factories'
import { TOOLS } from '../../src/mcp/tools'

const t = appForFile()

describe('store language', () => {
  test('defaults to en; PUT sets es or pt and leaves the other fields alone', async () => {
    const { key } = makeShop(t.deps, { description: 'Mugs' })
    const [r0, b0] = await t.api.get('/api/v1/store', { key })
    expectStatus(r0, b0).toBe(200)
    expect(b0.data.language).toBe('en')
    for (const language of ['es', 'pt'] as const) {
      const [res, body] = await t.api.put('/api/v1/store', { language }, { key })
      expectStatus(res, body).toBe(200)
      expect(body.data).toMatchObject({ language, description: 'Mugs' })
    }
    const [, again] = await t.api.get('/api/v1/store', { key })
    expect(again.data.language).toBe('pt')
  })

  test('an unknown language → 400 naming the field', async () => {
    const { key } = makeShop(t.deps)
    for (const language of ['fr', 'EN', 1, null]) {
      const [res, body] = await t.api.put('/api/v1/store', { language }, { key })
      expectStatus(res, body).toBe(400)
      expect(body.code).toBe('VALIDATION_ERROR')
      expect(body.details.field).toBe('language')
    }
  })

  test('each language has its own default WhatsApp template; a set template wins', async () => {
    const greetings = { es: 'Hola ', en: 'Hi ', pt: 'Olá ' }
    for (const [language, greeting] of Object.entries(greetings)) {
      const { store, key } = makeShop(t.deps)
      await t.api.put('/api/v1/store', { language }, { key })
      const cat = makeCatalog(t.deps, store.id)
      const [res, body] = await t.api.post('/api/orders', orderBody(store.id, cat, { name: 'Eva' }))
      expectStatus(res, body).toBe(201)
      const text = new URL(body.whatsappUrl).searchParams.get('text')!
      expect(text.startsWith(`${greeting}${store.name}`)).toBe(true)
      expect(text).toContain('Eva')
    }
    const { store, key } = makeShop(t.deps)
    await t.api.put('/api/v1/store', { language: 'pt', whatsappTemplate: 'Pedido de {nombre}' }, { key })
    const [, body] = await t.api.post(
      '/api/orders',
      orderBody(store.id, makeCatalog(t.deps, store.id), { name: 'Rui' }),
    )
    expect(new URL(body.whatsappUrl).searchParams.get('text')).toBe(`Pedido de Rui\n\n${body.statusUrl}`)
  })

  test('the MCP update_store input offers language from the same model', () => {
    const tool = TOOLS.find((x) => x.name === 'update_store')!
    const prop = (tool.inputSchema as { properties: Record<string, { enum?: string[] }> }).properties.language
    expect(prop?.enum?.toSorted()).toEqual(['en', 'es', 'pt'])
  })
})
