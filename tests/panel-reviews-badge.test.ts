/**
 * The panel's Reviews link carries the count of reviews waiting for approval (issue 25, item 4),
 * in words for screen readers, only for roles that read reviews and only for their own store.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { makeApp, type TestApp } from './helpers/app'
import { makeMember, makeOwnerShop, PanelClient, signIn } from './helpers/panel'
import { makeReview } from './helpers/review-factories'

let t: TestApp
beforeAll(() => {
  t = makeApp()
})
afterAll(() => t.close())

const client = () => new PanelClient((r) => t.app.handle(r))
const reviewsLink = (html: string) => /<a href="\/admin\/reviews"[^>]*>(.*?)<\/a>/.exec(html)?.[1]

test('new pending reviews show as a count on the Reviews link; approving one lowers it; none shows no count', async () => {
  const { store, email } = await makeOwnerShop(t.deps)
  const other = await makeOwnerShop(t.deps)
  const owner = client()
  await signIn(owner, email)
  expect(reviewsLink((await owner.get('/admin')).text)).toBe('Reviews')

  const ids = [1, 2, 3].map(() => makeReview(t.deps, store.id).id)
  makeReview(t.deps, other.store.id) // another store's review never counts here
  const page = await owner.get('/admin')
  expect(reviewsLink(page.text)).toContain('<span class="badge" aria-hidden="true">3</span>')
  expect(reviewsLink(page.text)).toContain('<span class="sr-only">, 3 waiting for approval</span>')

  t.deps.db.$client.run("UPDATE reviews SET status = 'approved' WHERE id = ?", [ids[0]!])
  expect(reviewsLink((await owner.get('/admin')).text)).toContain('>2</span>')
})

test('every role reads reviews (contract), so a viewer sees the count too', async () => {
  const { store } = await makeOwnerShop(t.deps)
  makeReview(t.deps, store.id)
  const viewer = await makeMember(t.deps, store.id, 'viewer')
  const c = client()
  await signIn(c, viewer.email)
  const html = (await c.get('/admin')).text

  expect(reviewsLink(html)).toContain('>1</span>')
})
