/**
 * Reviews in the panel: pending first, approve / reject / delete through the
 * reviews module's verbs (the same rules as the API), the free plan's upgrade link instead of
 * the controls, and the role and store limits.
 */
import { expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { makeReview } from '../helpers/factories'

const t = appForFile()
const client = () => new PanelClient((r) => t.app.handle(r))
const statusOf = (id: string) =>
  t.deps.db.$client.query<{ status: string }, [string]>('SELECT status FROM reviews WHERE id = ?').get(id)?.status

test('pending first; approve, reject move it as the API does; delete asks first; markup shows as text', async () => {
  const { store, email } = await makeOwnerShop(t.deps, { plan: 'pro' })
  const old = makeReview(t.deps, store.id, { status: 'approved', customerName: 'Old One', createdAt: 1 })
  const a = makeReview(t.deps, store.id, { customerName: '<b>Ana</b>', comment: 'Great <script>x</script>' })
  const owner = client()
  await signIn(owner, email)
  const page = await owner.get('/admin/reviews')
  expect(page.status).toBe(200)
  expect(page.text.indexOf('&lt;b&gt;Ana&lt;/b&gt;')).toBeGreaterThan(-1)
  expect(page.text).not.toContain('<script>x')
  expect(page.text.indexOf('Waiting for approval')).toBeLessThan(page.text.indexOf('Old One'))
  expect((await owner.submit(`/admin/reviews/${a.id}/approve`, {})).status).toBe(303)
  expect(statusOf(a.id)).toBe('approved')
  // The browser follows the 303 back to the list (the form token comes with that page).
  expect((await owner.get('/admin/reviews?done=1')).text).toContain('Saved.')
  expect((await owner.submit(`/admin/reviews/${old.id}/reject`, {})).status).toBe(303)
  expect(statusOf(old.id)).toBe('rejected')
  expect((await owner.get(`/admin/reviews/${a.id}/delete`)).text).toContain('Delete this review?')
  expect(statusOf(a.id)).toBe('approved')
  expect((await owner.submit(`/admin/reviews/${a.id}/delete`, {})).status).toBe(303)
  expect(statusOf(a.id)).toBeUndefined()
})

test('free plan: the upgrade link instead of the controls, and a moderation post is refused', async () => {
  const { store, email } = await makeOwnerShop(t.deps, { plan: 'free' })
  const r = makeReview(t.deps, store.id)
  const owner = client()
  await signIn(owner, email)
  const page = await owner.get('/admin/reviews')
  expect(page.text).toContain('Approving and rejecting reviews comes with a paid plan.')
  expect(page.text).not.toContain(`/admin/reviews/${r.id}/approve`)
  expect((await owner.submit(`/admin/reviews/${r.id}/approve`, {})).status).toBe(403)
  expect(statusOf(r.id)).toBe('pending')
})

test("a viewer reads but can't moderate; another store's review is refused", async () => {
  const { store } = await makeOwnerShop(t.deps, { plan: 'pro' })
  const other = await makeOwnerShop(t.deps, { plan: 'pro' })
  const r = makeReview(t.deps, store.id)
  const foreign = makeReview(t.deps, other.store.id)
  const viewer = await makeMember(t.deps, store.id, 'viewer')
  const v = client()
  await signIn(v, viewer.email)
  const page = await v.get('/admin/reviews')
  expect(page.status).toBe(200)
  expect(page.text).not.toContain(`/admin/reviews/${r.id}/approve`)
  expect((await v.submit(`/admin/reviews/${r.id}/approve`, {})).status).toBe(403)
  const staff = await makeMember(t.deps, store.id, 'staff')
  const s = client()
  await signIn(s, staff.email)
  expect((await s.submit(`/admin/reviews/${foreign.id}/approve`, {})).status).toBe(403)
  expect(statusOf(foreign.id)).toBe('pending')
})
