/**
 * Every fault of a panel form at once, each at its field (the error summary pattern): a summary
 * at the top links each field's message, and the message sits at the field, tied to it by
 * aria-describedby with aria-invalid — the schema's faults and the module's own rules together,
 * in the person's language, nothing written.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeKey } from '../helpers/factories'
import { PanelClient, PASSWORD, signedInOwner, signIn } from '../helpers/panel'

const t = appForFile()

/** The control `id`'s message: the control is invalid and described by it, and the summary links it. */
function expectFaultAt(page: string, id: string, message: string) {
  const control = new RegExp(`<(input|select|textarea)[^>]* id="${id}"[^>]*>`).exec(page)?.[0] ?? ''
  expect(control).toContain('aria-invalid="true"')
  expect(control).toMatch(new RegExp(`aria-describedby="[^"]*${id}-error`))
  expect(page).toContain(`<p id="${id}-error" class="error">${message}</p>`)
  expect(page).toContain(`<li><a href="#${id}">${message}</a></li>`)
}

const summaryLinks = (page: string) =>
  [...(/<div class="alert error-summary"[\s\S]*?<\/div>/.exec(page)?.[0] ?? '').matchAll(/<a href="#([^"]+)"/g)].map(
    (m) => m[1],
  )

describe('every fault at once', () => {
  test('a discount with a malformed code, 150 % and 1.5 uses: three messages, each at its field', async () => {
    const { b, store } = await signedInOwner(t, { plan: 'pro' })
    const key = makeKey(t.deps, store.id)
    await b.get('/admin/discounts/new')
    const res = await b.submit('/admin/discounts', {
      code: 'no spaces!',
      type: 'percentage',
      value: '150',
      maxUses: '1.5',
      isActive: '1',
    })
    expect(res.status).toBe(400)
    expect(res.text).toContain('<h2 id="error-summary-title">There is a problem</h2>')
    expectFaultAt(res.text, 'code', 'This value is not in the right format.')
    expectFaultAt(res.text, 'value', 'A percentage is more than 0 and at most 100.')
    expectFaultAt(res.text, 'maxUses', 'Enter a whole number.')
    expect(summaryLinks(res.text).sort()).toEqual(['code', 'maxUses', 'value'])
    expect((await t.api.get('/api/v1/discounts', { key }))[1].data).toHaveLength(0)
  })

  test('a product with no name, a price of 1.234, a compare-at price under it, a variant without a price', async () => {
    const { b, store } = await signedInOwner(t, { plan: 'pro' })
    const key = makeKey(t.deps, store.id)
    await b.get('/admin/products/new')
    const res = await b.submit('/admin/products', {
      _action: 'save',
      name: '',
      price: '1.234',
      comparePrice: '1',
      variantCount: '1',
      'v0-name': 'Small',
      'v0-price': '',
    })
    expect(res.status).toBe(400)
    const ids = summaryLinks(res.text)
    expect(ids).toEqual(expect.arrayContaining(['name', 'price', 'v0-price']))
    expectFaultAt(res.text, 'name', 'Fill in this field.')
    expectFaultAt(res.text, 'v0-price', 'Fill in this field.')
    expectFaultAt(res.text, 'price', 'Use at most 2 decimals.')
    expect((await t.api.get('/api/v1/products', { key }))[1].data).toHaveLength(0)
  })

  test("a product's compare-at price at or under its price shows beside a missing name", async () => {
    const { b } = await signedInOwner(t, { plan: 'pro' })
    await b.get('/admin/products/new')
    const res = await b.submit('/admin/products', { _action: 'save', name: '', price: '10', comparePrice: '9' })
    expectFaultAt(res.text, 'name', 'Fill in this field.')
    expectFaultAt(res.text, 'comparePrice', 'The compare-at price must be greater than the price.')
  })

  test('shipping and settings list every field at once, in Spanish for a Spanish reader', async () => {
    const { b } = await signedInOwner(t, { plan: 'pro' })
    await b.get('/admin/shipping/new')
    const ship = await b.submit('/admin/shipping', { name: '', price: '-1', estimatedDays: 'two' })
    expect(summaryLinks(ship.text).sort()).toEqual(['estimatedDays', 'name', 'price'])
    expectFaultAt(ship.text, 'name', 'Fill in this field.')
    expectFaultAt(ship.text, 'price', 'Enter 0 or more.')
    await b.get('/admin/account')
    await b.submitFrom('/admin/account', '/admin/account/profile', { name: 'Owner', language: 'es' })
    await b.get('/admin/settings')
    const settings = await b.submit('/admin/settings', {
      name: '',
      currency: 'DOLLARS',
      language: 'xx',
      pendingOrderTtlHours: '0',
    })
    expect(settings.text).toContain('Hay un problema')
    expect(summaryLinks(settings.text).length).toBeGreaterThanOrEqual(3)
    expect(settings.text).toContain('<p id="name-error" class="error">Completa este campo.</p>')
  })
})

test('a webhook with a plain-http URL and no event: both at their field', async () => {
  const { b } = await signedInOwner(t, { plan: 'pro' })
  await b.get('/admin/webhooks')
  const res = await b.submit('/admin/webhooks', { url: 'http://example.com/hook' })
  expect(res.status).toBe(400)
  expect(summaryLinks(res.text).sort()).toEqual(['events', 'url'])
  expect(res.text).toContain('<p id="events-error" class="error">')
  expect(res.text).toContain('<p id="url-error" class="error">')
})

describe('the account page judges every field at once', () => {
  test('a wrong current password, a too-short new one: both messages, each at its field; nothing changes', async () => {
    const { b, email } = await signedInOwner(t)
    await b.get('/admin/account')
    const res = await b.submit('/admin/account/password', { current: 'not my password at all', password: 'short' })
    expect(res.status).toBe(400)
    expect(summaryLinks(res.text)).toEqual(['current-password', 'new-password'])
    expectFaultAt(res.text, 'current-password', 'The current password is not right.')
    expectFaultAt(res.text, 'new-password', 'Use at least 10 characters.')
    const newPassword = /<input[^>]* id="new-password"[^>]*>/.exec(res.text)?.[0]
    expect(newPassword).toContain('aria-describedby="new-password-hint new-password-error"')
    expect((await signIn(new PanelClient((r) => t.app.handle(r)), email)).status).toBe(303)
  })

  test('a right current password and a common new one: only the new one is faulted', async () => {
    const { b } = await signedInOwner(t)
    await b.get('/admin/account')
    const res = await b.submit('/admin/account/password', { current: PASSWORD, password: 'qwertyuiop' })
    expect(res.status).toBe(400)
    expect(summaryLinks(res.text)).toEqual(['new-password'])
    expectFaultAt(res.text, 'new-password', 'This password is too common. Choose another.')
  })

  test('a profile without a name: the summary links the name field', async () => {
    const { b } = await signedInOwner(t)
    await b.get('/admin/account')
    const res = await b.submit('/admin/account/profile', { name: '', language: '' })
    expect(res.status).toBe(400)
    expectFaultAt(res.text, 'name', 'Enter a name.')
  })
})
