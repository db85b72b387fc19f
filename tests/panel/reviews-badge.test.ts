/**
 * The panel's Reviews link carries the count of reviews waiting for approval,
 * in words for screen readers, only for roles that read reviews and only for their own store.
 */
import { expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { makeReview } from '../helpers/factories'

const t = appForFile()

const client = () => new PanelClient((r) => t.app.handle(r))
const reviewsLink = (html: string) => /<a href="\/admin\/reviews"[^>]*>(.*?)<\/a>/.exec(html)?.[1]

test('new pending reviews show as a count on the Reviews link; approving one lowers it; none, no count', async () => {
  const { store, email } = await makeOwnerShop(t.deps)
  const other = await makeOwnerShop(t.deps)
  const owner = client()
  await signIn(owner, email)
  expect(reviewsLink((await owner.get('/admin')).text)).toBe('Reviews')

  const ids = [1, 2, 3].map(() => makeReview(t.deps, store.id).id)
  makeReview(t.deps, other.store.id) // another store's review never counts here
  const page = await owner.get('/admin')
  expect(reviewsLink(page.text)).toContain('<span class="badge" aria-hidden="true">3</span>')
  expect(reviewsLink(page.text)).toContain('<span class="sr-only"> 3 waiting for approval</span>')

  t.deps.db.$client.run("UPDATE reviews SET status = 'approved' WHERE id = ?", [ids[0]!])
  expect(reviewsLink((await owner.get('/admin')).text)).toContain('>2</span>')
})

test('every role reads reviews, so a viewer sees the count too', async () => {
  const { store } = await makeOwnerShop(t.deps)
  makeReview(t.deps, store.id)
  const viewer = await makeMember(t.deps, store.id, 'viewer')
  const c = client()
  await signIn(c, viewer.email)
  const html = (await c.get('/admin')).text

  expect(reviewsLink(html)).toContain('>1</span>')
})

test('GET /admin/badges gives the count the script keeps live; only for a signed-in person of the store', async () => {
  const { store, email } = await makeOwnerShop(t.deps)
  const owner = client()
  await signIn(owner, email)
  const badges = async (c: PanelClient) => {
    const page = await c.get('/admin/badges')
    return page.status === 200 ? JSON.parse(page.text) : page.status
  }
  expect(await badges(owner)).toEqual({ reviews: 0 })
  makeReview(t.deps, store.id)
  makeReview(t.deps, store.id)
  expect(await badges(owner)).toEqual({ reviews: 2 })
  // The link carries what the script needs to say the count in words.
  expect((await owner.get('/admin')).text).toContain('data-badge="reviews" data-badge-words="{n} waiting for approval"')
  const stranger = client()
  expect(await badges(stranger)).not.toEqual({ reviews: 2 })
})
