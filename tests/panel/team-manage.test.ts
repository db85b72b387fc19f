/**
 * The Team page's remaining steps over HTTP: the invitation link is plain selectable
 * text with "Copy link" and a WhatsApp share of that very link; removing a person asks first;
 * the last owner can be neither removed nor demoted, with a message that says what to do;
 * another store's member has no confirmation page (403).
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { memberships } from '../../src/db/schema'
import { appForFile } from '../helpers/app'
import { makeMember, PanelClient, signedInOwner, signIn } from '../helpers/panel'

const t = appForFile()

async function owner() {
  const o = await signedInOwner(t)
  return { ...o, membership: t.deps.db.select().from(memberships).where(eq(memberships.userId, o.user.id)).get()! }
}
const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')

describe('team', () => {
  test('the invitation link: selectable text, Copy link, and a WhatsApp share carrying the same link', async () => {
    const o = await owner()
    await o.b.get('/admin/team')
    const res = await o.b.submit('/admin/team/invite', { email: 'new-staff@example.com', role: 'staff' })
    expect(res.status).toBe(200)
    const link = decode(/id="invite-link" type="text" readonly value="([^"]+)"/.exec(res.text)![1]!)
    expect(link).toStartWith('http://localhost/admin/join?token=')
    expect(res.text).toContain('data-copy="invite-link"')
    const share = decode(/href="(https:\/\/wa\.me\/\?text=[^"]+)"/.exec(res.text)![1]!)
    expect(decodeURIComponent(share.slice('https://wa.me/?text='.length))).toContain(link)
    expect((await o.b.get('/admin/team')).text).toContain('new-staff@example.com')
  })

  test('removing asks first; the last owner is neither removed nor demoted; a second owner can be', async () => {
    const o = await owner()
    const staff = await makeMember(t.deps, o.store.id, 'staff')
    const staffMembership = t.deps.db.select().from(memberships).where(eq(memberships.userId, staff.user.id)).get()!
    const team = await o.b.get('/admin/team')
    expect(team.text).toContain(`href="/admin/team/${staffMembership.id}/remove"`)
    const confirm = await o.b.get(`/admin/team/${staffMembership.id}/remove`)
    expect(confirm.status).toBe(200)
    expect(confirm.text).toContain('Remove staff person from the team?')
    expect(confirm.text).toContain('Yes, remove')
    // Opening the confirmation changes nothing.
    expect(t.deps.db.select().from(memberships).where(eq(memberships.id, staffMembership.id)).get()).toBeDefined()

    await o.b.get(`/admin/team/${o.membership.id}/remove`)
    const last = await o.b.submit(`/admin/team/${o.membership.id}/remove`)
    expect(last.status).toBe(409)
    expect(last.text).toContain('A store keeps at least one owner. Make someone else an owner first.')
    await o.b.get('/admin/team')
    const demote = await o.b.submit(`/admin/team/${o.membership.id}/role`, { role: 'staff' })
    expect(demote.status).toBe(409)
    expect(demote.text).toContain('Make someone else an owner first.')
    expect(t.deps.db.select().from(memberships).where(eq(memberships.id, o.membership.id)).get()!.role).toBe('owner')

    // With a second owner, the first may step down.
    await o.b.get('/admin/team')
    expect((await o.b.submit(`/admin/team/${staffMembership.id}/role`, { role: 'owner' })).status).toBe(303)
    await o.b.get(`/admin/team/${staffMembership.id}/remove`)
    expect((await o.b.submit(`/admin/team/${staffMembership.id}/remove`)).status).toBe(303)
    expect(t.deps.db.select().from(memberships).where(eq(memberships.id, staffMembership.id)).get()).toBeUndefined()
  })

  test("another store's member: no confirmation page (403); staff has none either", async () => {
    const a = await owner()
    const b = await owner()
    expect((await a.b.get(`/admin/team/${b.membership.id}/remove`)).status).toBe(403)
    const staff = await makeMember(t.deps, a.store.id, 'staff')
    const s = new PanelClient((r) => t.app.handle(r))
    await signIn(s, staff.email)
    expect((await s.get(`/admin/team/${a.membership.id}/remove`)).status).toBe(403)
  })
})
