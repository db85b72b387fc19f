/** The team page, a ready invitation, and the activity log. */
import type { Role } from '../../modules/people'
import { html, raw, type Html } from '../../shop/html'
import { type Frame, confirmOrBack, copyButton, form, layout, errorLine, linkFor, submitFor } from './frame'
import { shownAt } from './time'

export interface TeamData {
  members: { id: string; userId: string; email: string; name: string; role: Role; lastSignInAt: string | null }[]
  pending: { id: string; email: string; role: Role; expiresAt: string }[]
  myUserId: string
  error?: string
  email?: string
  /** Sections other areas add (the store's connected apps: apps-routes.ts). */
  sections?: Html[]
}

export function teamPage(f: Frame, t: TeamData): string {
  const w = f.w
  const roleSelect = (id: string, label: string, value: Role) =>
    html`<label for="${id}" class="sr-only">${label}</label><select id="${id}" name="role">${(
      ['owner', 'staff', 'viewer'] as const
    ).map(
      (r) => html`<option value="${r}"${raw(r === value ? ' selected' : '')}>${w.team.roles[r]}</option>`,
    )}</select>`
  const pendingHeading = html`<h2 id="pending-h">${w.team.pendingInvitations}</h2>`
  const expires = (at: string) => html`<time datetime="${at}">${shownAt(f, at)}</time>`
  return layout(
    f,
    w.nav.team,
    html`${errorLine('team-error', t.error)}
    <section aria-labelledby="members-h"><h2 id="members-h">${w.nav.team}</h2>
    <div class="table"><table>
      <thead><tr><th scope="col">${w.common.name}</th><th scope="col">${w.team.role}</th>
      <th scope="col">${w.team.lastSignIn}</th>
      <th scope="col"><span class="sr-only">${w.common.remove}</span></th></tr></thead>
      <tbody>${t.members.map((m) => {
        const who = m.name || m.email
        return html`<tr><td>${m.name}<br><span class="hint">${m.email}</span></td>
        <td>${form(
          f,
          `/admin/team/${encodeURIComponent(m.id)}/role`,
          html`<div class="inline">${roleSelect(
            `role-${m.id}`,
            w.team.changeRoleOf(who),
            m.role,
          )}<button type="submit" class="secondary">${w.team.changeRole}</button></div>`,
        )}</td>
        <td>${
          m.lastSignInAt
            ? html`<time datetime="${m.lastSignInAt}">${shownAt(f, m.lastSignInAt)}</time>`
            : w.common.never
        }</td>
        <td><div class="actions">${
          m.userId === t.myUserId
            ? ''
            : linkFor(
                'button secondary',
                `/admin/team/${encodeURIComponent(m.id)}/reset`,
                w.team.makeResetLink(who),
                w.team.resetLink,
              )
        }<a class="button danger" href="/admin/team/${encodeURIComponent(m.id)}/remove"
          aria-label="${w.team.removeMember(who)}">${w.common.remove}</a></div></td></tr>`
      })}</tbody>
    </table></div></section>
    ${
      t.pending.length
        ? html`<section aria-labelledby="pending-h">${pendingHeading}<div class="table"><table>
        <thead><tr><th scope="col">${w.signin.email}</th><th scope="col">${w.team.role}</th>
        <th scope="col">${w.common.expires}</th>
        <th scope="col"><span class="sr-only">${w.team.revoke}</span></th></tr></thead>
        <tbody>${t.pending.map(
          (i) => html`<tr><td>${i.email}</td><td>${w.team.roles[i.role]}</td><td>${expires(i.expiresAt)}</td>
          <td>${form(
            f,
            `/admin/team/invitations/${encodeURIComponent(i.id)}/revoke`,
            submitFor('secondary', w.team.revokeInvitation(i.email), w.team.revoke),
          )}</td></tr>`,
        )}</tbody></table></div></section>`
        : ''
    }
    <section aria-labelledby="invite-h"><h2 id="invite-h">${w.team.invitePerson}</h2>
      ${form(
        f,
        '/admin/team/invite',
        html`<label for="invite-email">${w.signin.email}</label>
        <input id="invite-email" name="email" type="email" required value="${t.email ?? ''}">
        <label for="invite-name">${w.team.nameOptional}</label>
        <input id="invite-name" name="name" type="text">
        <label for="invite-role">${w.team.role}</label>
        <select id="invite-role" name="role">${(['staff', 'viewer', 'owner'] as const).map(
          (r) => html`<option value="${r}">${w.team.roles[r]}</option>`,
        )}</select>
        <button type="submit">${w.team.invite}</button>`,
      )}
    </section>
    ${t.sections ?? ''}`,
  )
}

/** Removing a person asks first (POST from here; the last owner is refused by the verb). */
export function removeMemberPage(f: Frame, m: { id: string; who: string }): string {
  const w = f.w
  return layout(
    f,
    w.team.removeConfirmTitle(m.who),
    html`<section><p>${w.team.removeConfirmText}</p>
    ${form(
      f,
      `/admin/team/${encodeURIComponent(m.id)}/remove`,
      confirmOrBack(w.team.confirmRemove, '/admin/team', w.common.cancel),
    )}</section>`,
    { narrow: true },
  )
}

export function inviteReadyPage(f: Frame, i: { email: string; url: string; storeName: string }): string {
  const w = f.w
  const share = `https://wa.me/?text=${encodeURIComponent(w.team.whatsappInvite(i.storeName, i.url))}`
  return layout(
    f,
    w.team.inviteReady,
    html`<section><p>${w.team.inviteLinkIntro(i.email)}</p>
      <label for="invite-link">${w.team.inviteLink}</label>
      <input id="invite-link" type="text" readonly value="${i.url}">
      <p class="actions">
        ${copyButton('invite-link', w.common.copied, w.team.copyLink)}
        <a class="button" href="${share}" rel="noopener noreferrer">${w.team.shareWhatsapp}</a>
        <span id="invite-link-status" role="status"></span>
      </p>
      <p><a href="/admin/team">${w.nav.team}</a></p>
    </section>`,
  )
}

// ---------------------------------------------------------------- activity

export interface ActivityData {
  rows: { seq: number; at: string; who: string; verb: string; recordType: string; recordId: string | null }[]
  actors: { value: string; label: string }[]
  recordTypes: string[]
  actor?: string
  recordType?: string
  olderHref?: string
}

export function activityPage(f: Frame, a: ActivityData): string {
  const w = f.w
  const columns = [w.activity.when, w.common.person, w.activity.what, w.activity.record]
  const head = html`<thead><tr>${columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>`
  const row = (r: ActivityData['rows'][number]) => {
    const when = html`<time datetime="${r.at}">${shownAt(f, r.at)}</time>`
    const record = html`${r.recordType}${r.recordId ? html` <code>${r.recordId}</code>` : ''}`
    return html`<tr><td>${when}</td><td>${r.who}</td><td>${r.verb}</td><td>${record}</td></tr>`
  }
  return layout(
    f,
    w.nav.activity,
    html`<form method="get" action="/admin/activity" class="inline">
      <div><label for="actor">${w.common.person}</label><select id="actor" name="actor">
      <option value="">${w.activity.anyone}</option>${a.actors.map(
        (o) => html`<option value="${o.value}"${raw(o.value === a.actor ? ' selected' : '')}>${o.label}</option>`,
      )}</select></div>
      <div><label for="record">${w.activity.record}</label><select id="record" name="record">
      <option value="">${w.activity.anyRecord}</option>${a.recordTypes.map(
        (r) => html`<option value="${r}"${raw(r === a.recordType ? ' selected' : '')}>${r}</option>`,
      )}</select></div>
      <button type="submit" class="secondary">${w.activity.filter}</button>
    </form>
    ${
      a.rows.length === 0
        ? html`<p>${w.activity.noActivity}</p>`
        : html`<div class="table"><table>${head}
      <tbody>${a.rows.map(row)}</tbody></table></div>`
    }
    ${a.olderHref ? html`<p><a href="${a.olderHref}">${w.common.older}</a></p>` : ''}`,
  )
}

/** Making a member's reset link asks first: their password stops at once (POST from here, after a recent proof). */
export function resetMemberPage(f: Frame, m: { id: string; who: string }, error?: string): string {
  const w = f.w
  return layout(
    f,
    w.team.resetConfirmTitle(m.who),
    html`${errorLine('reset-error', error)}<section><p>${w.team.resetConfirmText}</p>
    ${
      error
        ? ''
        : form(
            f,
            `/admin/team/${encodeURIComponent(m.id)}/reset`,
            confirmOrBack(w.team.confirmReset, '/admin/team', w.common.cancel),
          )
    }</section>`,
    { narrow: true },
  )
}

export function resetReadyPage(f: Frame, r: { email: string; url: string }): string {
  const w = f.w
  return layout(
    f,
    w.team.resetReady,
    html`<section><p>${w.team.resetLinkIntro(r.email)}</p>
      <label for="reset-link">${w.team.resetLink}</label>
      <input id="reset-link" type="text" readonly value="${r.url}">
      <p class="actions">
        ${copyButton('reset-link', w.common.copied, w.team.copyLink)}
        <span id="reset-link-status" role="status"></span>
      </p>
      <p><a href="/admin/team">${w.nav.team}</a></p>
    </section>`,
  )
}
