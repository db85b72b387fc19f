/** Store `timezone` (an IANA name, default UTC): read, set, canonical spelling, refused when unknown. */
import { describe, expect, test } from 'bun:test'
import { appForFile, expectStatus } from '../helpers/app'
import { makeShop } from '../helpers/factories'

const t = appForFile()

describe('store timezone', () => {
  test('defaults to UTC; PUT sets an IANA name, spelled as the zone data spells it, leaving the rest', async () => {
    const { key } = makeShop(t.deps, { description: 'Mugs' })
    const [r0, b0] = await t.api.get('/api/v1/store', { key })
    expectStatus(r0, b0).toBe(200)
    expect(b0.data.timezone).toBe('UTC')
    const [res, body] = await t.api.put('/api/v1/store', { timezone: 'America/Bogota' }, { key })
    expectStatus(res, body).toBe(200)
    expect(body.data).toMatchObject({ timezone: 'America/Bogota', description: 'Mugs' })
    const [, lower] = await t.api.put('/api/v1/store', { timezone: 'asia/kolkata' }, { key })
    expect(lower.data.timezone).toBe('Asia/Kolkata')
    const [, again] = await t.api.get('/api/v1/store', { key })
    expect(again.data.timezone).toBe('Asia/Kolkata')
  })

  test('an unknown zone, an offset or a wrong type → 400 field timezone, and nothing changes', async () => {
    const { key } = makeShop(t.deps)
    await t.api.put('/api/v1/store', { timezone: 'Europe/Lisbon' }, { key })
    for (const timezone of ['Mars/Olympus', '+05:00', 'GMT-3 Brasilia', '', 'x'.repeat(65), 5, null]) {
      const [res, body] = await t.api.put('/api/v1/store', { timezone, name: 'Changed' }, { key })
      expectStatus(res, body).toBe(400)
      expect(body.code).toBe('VALIDATION_ERROR')
      expect(body.details.field).toBe('timezone')
    }
    const [, after] = await t.api.get('/api/v1/store', { key })
    expect(after.data.timezone).toBe('Europe/Lisbon')
    expect(after.data.name).not.toBe('Changed')
  })
})
