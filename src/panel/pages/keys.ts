import { AppError } from '../../lib/errors'
import { SCOPES, parseScopes } from '../../lib/scopes'
import { createKey, listKeys, revokeKey } from '../../modules/keys'
import { html, raw } from '../../shop/html'
import { confirmOrBack, copyButton, copyStatus, form, layout, messagePage, type Frame } from '../views'
import { banner, input, notice } from './controls'
import { confirmFirst } from '../confirm'
import { ShownOnce } from '../shown-once'
import { field, ticked, type PageReq, type PageRoute, type Problem } from './kit'
import type { Words } from '../words'
import type { PanelEnv } from '../env'

const RESOURCES = [...new Set(SCOPES.map((s) => s.split(':')[0]!))]
const canHave = (resource: string, access: 'read' | 'write') =>
  (SCOPES as readonly string[]).includes(`${resource}:${access}`)
const day = (isoText: string | null) => (isoText ? isoText.slice(0, 10) : '')

interface KeyForm {
  name: string
  expires: string
  scopes: Set<string>
}

type KeyRow = ReturnType<typeof listKeys>[number]

/** A scope's resource as the panel names it: its page's name, the store, or the statistics. */
const resourceName = (w: Words, resource: string): string =>
  ({
    store: w.common.store,
    products: w.nav.products,
    categories: w.nav.categories,
    orders: w.nav.orders,
    discounts: w.nav.discounts,
    reviews: w.nav.reviews,
    customers: w.nav.customers,
    stats: w.keys.stats,
    shipping: w.nav.shipping,
    webhooks: w.nav.webhooks,
  })[resource] ?? resource

function keysPage(
  f: Frame,
  d: { keys: KeyRow[]; form: KeyForm; errors: Record<string, string>; problem?: Problem; done?: string },
): string {
  const w = f.w
  const e = d.errors
  const box = (resource: string, access: 'read' | 'write') => {
    if (!canHave(resource, access)) return html`<td></td>`
    const id = `scope-${resource}-${access}`
    const label = w.keys.scopeLabel(resourceName(w, resource), access === 'read' ? w.keys.read : w.keys.write)
    const checked = raw(d.form.scopes.has(`${resource}:${access}`) ? ' checked' : '')
    const box = html`<input id="${id}" name="${id}" type="checkbox" value="1"${checked}>`
    return html`<td>${box}<label for="${id}" class="sr-only">${label}</label></td>`
  }
  const list = d.keys.length
    ? html`<div class="table"><table>
      <thead><tr><th scope="col">${w.keys.keyName}</th><th scope="col">${w.keys.scopes}</th>
      <th scope="col">${w.keys.created}</th><th scope="col">${w.common.lastUsed}</th>
      <th scope="col">${w.common.expires}</th>
      <th scope="col"><span class="sr-only">${w.keys.revoke}</span></th></tr></thead>
      <tbody>${d.keys.map((k) => {
        const name = k.name || k.prefix
        const [revokeLabel, revokeText] = [w.keys.revokeKey(name), w.keys.revoke]
        const revokePath = `/admin/keys/${encodeURIComponent(k.id)}/revoke`
        return html`<tr><td>${k.name ?? ''} <code>${k.prefix}…</code>${
          k.revokedAt ? html` <span class="badge">${w.keys.revoked}</span>` : ''
        }</td>
        <td>${k.scopes.join(', ')}</td><td>${day(k.createdAt)}</td><td>${
          k.lastUsedAt ? day(k.lastUsedAt) : w.common.never
        }</td><td>${k.expiresAt ? day(k.expiresAt) : w.keys.noExpiry}</td>
        <td>${k.revokedAt ? '' : html`<a href="${revokePath}" aria-label="${revokeLabel}">${revokeText}</a>`}</td></tr>`
      })}</tbody></table></div>`
    : html`<p>${w.keys.noKeys}</p>`
  return layout(
    f,
    w.nav.keys,
    html`${notice(d.done)}<section aria-labelledby="keys-h"><h2 id="keys-h">${w.nav.keys}</h2>${list}</section>
    <section aria-labelledby="create-h"><h2 id="create-h">${w.keys.createKey}</h2>
    ${banner(w, d.problem, e)}
    ${form(
      f,
      '/admin/keys',
      html`${input({ id: 'name', label: w.keys.keyName, value: d.form.name, errors: e, attrs: 'maxlength="100"' })}
      <fieldset${raw(e.scopes ? ' aria-describedby="scopes-error"' : '')}><legend>${w.keys.scopes}</legend>
        <div class="table"><table class="scopes"><thead><tr><th scope="col">${w.keys.resource}</th>
        <th scope="col">${w.keys.read}</th><th scope="col">${w.keys.write}</th></tr></thead>
        <tbody>${RESOURCES.map(
          (r) => html`<tr><th scope="row">${resourceName(w, r)}</th>${box(r, 'read')}${box(r, 'write')}</tr>`,
        )}</tbody></table></div>
        ${e.scopes ? html`<p id="scopes-error" class="error">${e.scopes}</p>` : ''}
      </fieldset>
      ${input({
        id: 'expires',
        label: w.keys.expiry,
        value: d.form.expires,
        type: 'date',
        hint: w.keys.expiryHint,
        errors: e,
      })}
      <button type="submit">${w.keys.createKey}</button>`,
      'novalidate',
    )}</section>`,
  )
}

/** The new key's secret, shown once (undefined: it was shown already, or is too old to show). */
function createdPage(f: Frame, key: string | undefined): string {
  const w = f.w
  const keysLink = html`<a class="button" href="/admin/keys">${w.nav.keys}</a>`
  return layout(
    f,
    w.keys.keyCreated,
    key
      ? html`<section><p>${w.keys.keyOnce}</p>
    <p><strong>${w.keys.secret}</strong></p>
    <p><code id="new-key" class="secret">${key}</code></p>
    <p class="actions">${copyButton('new-key', w.common.copied, w.common.copy)}${copyStatus('new-key')}</p>
    <p><a class="button" href="/admin/keys">${w.common.done}</a></p></section>`
      : html`<section><p>${w.keys.keyShownOnce}</p><p>${keysLink}</p></section>`,
  )
}

function revokePage(f: Frame, k: { id: string; name: string }): string {
  const w = f.w
  return layout(
    f,
    w.keys.revokeConfirmTitle(k.name),
    html`<section><p>${w.keys.revokeConfirmText}</p>
    ${form(
      f,
      `/admin/keys/${encodeURIComponent(k.id)}/revoke`,
      confirmOrBack(w.keys.confirmRevoke, '/admin/keys', w.common.cancel),
    )}</section>`,
    { narrow: true },
  )
}

function readForm(body: unknown): KeyForm {
  const scopes = new Set<string>()
  for (const r of RESOURCES)
    for (const a of ['read', 'write'] as const)
      if (canHave(r, a) && ticked(body, `scope-${r}-${a}`)) scopes.add(`${r}:${a}`)
  return { name: (field(body, 'name') ?? '').trim().slice(0, 100), expires: field(body, 'expires') ?? '', scopes }
}

export function keyPages(kit: PanelEnv): PageRoute[] {
  const { db, clock, cache } = kit.deps
  const shown = new ShownOnce(() => clock.now())
  const show = (c: PageReq, status: number, f: KeyForm, errors: Record<string, string> = {}, done?: string) =>
    kit.render(c.p, c.set, status, (fr) =>
      keysPage(fr, { keys: listKeys({ ctx: { db }, input: { storeId: c.ctx.store.id } }), form: f, errors, done }),
    )
  const keyOf = (c: PageReq) =>
    listKeys({ ctx: { db }, input: { storeId: c.ctx.store.id } }).find((k) => k.id === c.params.id)
  const notFound = (c: PageReq) =>
    kit.render(c.p, c.set, 404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText))

  return [
    {
      method: 'get',
      path: '/admin/keys',
      need: 'keys',
      handler: (c) =>
        show(
          c,
          200,
          { name: '', expires: '', scopes: new Set() },
          {},
          c.query.done === 'revoked' ? c.p.w.keys.revoked : undefined,
        ),
    },
    {
      method: 'post',
      path: '/admin/keys',
      need: 'keys',
      handler: async (c) => {
        // Creating a key needs a recent proof that it is them (confirm.ts); the form is held meanwhile.
        const held = await confirmFirst(kit, c)
        if (held) return held
        const w = c.p.w
        const f = readForm(c.body)
        const errors: Record<string, string> = {}
        let scopes: string[] = []
        try {
          scopes = parseScopes([...f.scopes].join(','))
        } catch {
          errors.scopes = w.keys.scopesRequired
        }
        let expiresAt: number | null = null
        if (f.expires) {
          const at = /^\d{4}-\d{2}-\d{2}$/.test(f.expires) ? Date.parse(`${f.expires}T23:59:59.999Z`) : NaN
          if (Number.isNaN(at)) errors.expires = w.problems.err.invalid_format!
          else if (at <= clock.now()) errors.expires = w.keys.expiryPast
          else expiresAt = at
        }
        if (Object.keys(errors).length) return show(c, 400, f, errors)
        // The key and its activity line commit together (createKey, with the person as its actor).
        const created = createKey({
          ctx: c.ctx,
          input: { storeId: c.ctx.store.id, scopes, name: f.name || undefined, expiresAt },
        })
        // POST, then a redirect to the page that shows the secret once: a reload creates nothing.
        const id = shown.put(c.person.session.id, created.key)
        return kit.seeOther(c.set, `/admin/keys/created?shown=${id}`)
      },
    },
    {
      method: 'get',
      path: '/admin/keys/created',
      need: 'keys',
      handler: (c) => {
        const p = c.p
        const key = shown.take(c.person.session.id, c.query.shown)
        return kit.render(p, c.set, 200, (fr) => createdPage(fr, key))
      },
    },
    {
      method: 'get',
      path: '/admin/keys/:id/revoke',
      need: 'keys',
      owns: 'apiKeys',
      handler: (c) => {
        const k = keyOf(c)
        if (!k || k.revokedAt) return k ? kit.seeOther(c.set, '/admin/keys') : notFound(c)
        return kit.render(c.p, c.set, 200, (f) => revokePage(f, { id: k.id, name: k.name || k.prefix }))
      },
    },
    {
      method: 'post',
      path: '/admin/keys/:id/revoke',
      need: 'keys',
      owns: 'apiKeys',
      handler: (c) => {
        if (!keyOf(c)) return notFound(c)
        try {
          revokeKey({ ctx: c.ctx, input: { id: c.params.id! } })
        } catch (e) {
          if (e instanceof AppError && e.status === 404) return notFound(c)
          throw e
        }
        // The gate caches key rows: drop them so the revoked key is refused on its next request.
        cache.invalidateKeys()
        return kit.seeOther(c.set, '/admin/keys?done=revoked')
      },
    },
  ]
}
