/**
 * The seller panel under /admin: sign-in (password, two-step; passkeys in
 * passkey-signin-routes.ts), first-run setup, one-time links, the shell (dashboard, account,
 * team, activity, and every page of pages/), sign out and
 * the store switcher. Every route declares its access (`{ access: { panel: … } }`); the gate
 * (panel/gate.ts) decides before the body is read and the hook below renders its decision, then
 * checks the session's form token on every state-changing request. Forms POST and redirect;
 * JSON answers only the passkey ceremonies, which need the browser's WebAuthn API anyway.
 */
import { Elysia } from 'elysia'
import { access } from '../plugins/access'
import {
  Challenges,
  openSession,
  sameSecret,
  sessionCookie,
  type Opened,
  type PeopleCtx,
  type RelyingParty,
} from '../modules/people'
import { panelAssets, type PanelAssets } from './assets'
import type { PanelRequest } from './gate'
import { catalogPages } from './pages'
import { forbiddenPage, messagePage, suspendedPage, type Frame } from './views'

import { frameOf } from './pages/plugin-kit'
import { PANEL_CSP } from './respond'
import { panelPages } from './pages/plugin'
export { PANEL_CSP }

import { type Req, field, finish, page, seeOther } from './respond'
import { panelPlugin, panelRequestOf, panelRoute } from './route'
import { accountRoutes } from './account-routes'
import { linkRoutes } from './link-routes'
import { passkeySignInRoutes } from './passkey-signin-routes'
import { teamRoutes } from './team-routes'
import { pushPanel } from './push'
import { signInRoutes } from './signin-routes'
import { passkeyRoutes } from './passkey-routes'
import { confirmRoutes } from './confirm-routes'
import { resetRoutes } from './reset-routes'
import { appsRoutes } from './apps-routes'
import { oauthPanelRoutes } from './oauth-routes'
import type { PanelDeps, PanelEnv, PanelOptions } from './env'

export type { PanelDeps, PanelOptions } from './env'

export { deviceName } from './respond'

export function panelRoutes(deps: PanelDeps, opts: PanelOptions) {
  const { db, clock, config, limiter } = deps
  const people: PeopleCtx = { db, clock, config }
  const challenges = new Challenges(() => clock.now())
  const assets = panelAssets()
  let loaded: PanelAssets | undefined
  void assets.then((a) => (loaded = a))

  const rpOf = (p: PanelRequest): RelyingParty => ({
    id: new URL(p.origin).hostname,
    name: 'Storefront panel',
    origin: p.origin,
  })
  const linkUrl = (p: PanelRequest, token: string) => `${p.origin}/admin/join?token=${encodeURIComponent(token)}`
  /** Rotation: the request's own session (complete or pending) ends as the new one opens. */
  const currentSessionId = (p: PanelRequest) => p.person?.session.id ?? p.pending?.session.id

  const signedInTo = (set: Req['set'], opened: Opened, next = '/admin') =>
    seeOther(set, next, sessionCookie(opened.token))

  async function render(
    p: PanelRequest,
    set: Req['set'],
    status: number,
    build: (f: Frame) => string,
    extra?: Record<string, string>,
  ) {
    return page(set, status, build(await frameOf(p)), extra)
  }

  // What the route files and pages below share (env.ts).
  const env: PanelEnv = {
    deps,
    db,
    clock,
    config,
    limiter,
    people,
    challenges,
    render,
    seeOther,
    rpOf,
    linkUrl,
    currentSessionId,
    signedInTo,
    issuerOf,
    opts,
  }

  const app = new Elysia({ name: 'panel' })
    .use(access)
    // The gate's decision, rendered; then the form token of the session on every state-changing request.
    .onBeforeHandle(async (c) => {
      const p = panelRequestOf(c)
      if (!p) return
      const { set } = c
      const d = p.deny
      if (d) {
        if (d.status === 303) return seeOther(set, d.location)
        const store = p.person?.store
        // The gate answers 402 only for a person's suspended store.
        if (d.status === 402 && store) return render(p, set, 402, (f) => suspendedPage(f, store, config.upgradeUrl))
        if (d.status === 403 && d.kind === 'noStore')
          return render(p, set, 403, (f) => messagePage(f, f.w.errors.noStoreTitle, f.w.errors.noStoreText))
        const crossSite = d.status === 403 && d.kind === 'crossSite'
        return render(p, set, 403, (f) => forbiddenPage(f, crossSite ? f.w.errors.crossSiteText : undefined))
      }
      const method = c.request.method
      // A streamed upload's token is in the body nobody has read yet: its handler checks it (pages/kit.ts `tokenOk`).
      if (method !== 'GET' && method !== 'HEAD' && p.formToken && !p.upload) {
        const sent = field(c.body, '_csrf') ?? c.request.headers.get('x-form-token') ?? ''
        if (!sameSecret(sent, p.formToken))
          return render(p, set, 403, (f) => forbiddenPage(f, f.w.errors.crossSiteText))
      }
    })
    .use(
      panelPlugin('shellRoutes', [
        panelRoute({ method: 'get', path: '/admin/assets/:file', need: 'anonymous' }, async ({ request, set }) => {
          const a = (loaded ?? (await assets)).byUrl.get(new URL(request.url).pathname)
          if (!a) return finish(set, 404, 'Not found\n', { 'content-type': 'text/plain; charset=utf-8' })
          const gzip = (request.headers.get('accept-encoding') ?? '').includes('gzip')
          if (request.headers.get('if-none-match') === a.etag)
            return finish(set, 304, null, { etag: a.etag, 'cache-control': 'public, max-age=31536000, immutable' })
          return finish(set, 200, gzip ? a.gzip : a.body, {
            'content-type': a.type,
            'cache-control': 'public, max-age=31536000, immutable',
            etag: a.etag,
            vary: 'accept-encoding',
            ...(gzip ? { 'content-encoding': 'gzip' } : {}),
          })
        }),
        // The navigation's counts, for the script that keeps them live (views/frame.ts).
        panelRoute({ method: 'get', path: '/admin/badges', need: 'reviews:read' }, async ({ p, set }) => {
          const f = await frameOf(p)
          return finish(set, 200, JSON.stringify({ reviews: f.badges?.reviews ?? 0 }), {
            'content-type': 'application/json',
            'cache-control': 'no-store',
          })
        }),
        // ------------------------------------------------------------
        // the shell (the dashboard, /admin, is pages/dashboard.ts)
        panelRoute({ method: 'post', path: '/admin/store', need: 'signedIn' }, ({ p, person, set, field, render }) => {
          const target = person.stores.find((s) => s.storeId === field('storeId'))
          if (!target) return render(403, (f) => forbiddenPage(f))
          // Another store is another role: a privilege change, so a new session id.
          const s = person.session
          const opened = openSession({
            ctx: people,
            input: {
              userId: s.userId,
              storeId: target.storeId,
              userAgent: p.userAgent,
              ip: p.ip,
              replacing: s.id,
              provedAt: s.provedAt,
            },
          })
          return signedInTo(set, opened)
        }),
      ]),
    )

  // Sign-in, links, account, confirm-it's-you, team and activity, connected apps and OAuth consent (each its own file).
  app
    .use(signInRoutes(env))
    .use(passkeySignInRoutes(env))
    .use(linkRoutes(env))
    .use(accountRoutes(env))
    .use(passkeyRoutes(env))
    .use(confirmRoutes(env))
    .use(teamRoutes(env))
    .use(resetRoutes(env))
    .use(appsRoutes(env))
    .use(oauthPanelRoutes(env))
    .use(pushPanel(env))

  // The catalog pages: descriptors of the same builder, each with its access.
  app.use(
    panelPlugin(
      'catalogPages',
      catalogPages(env).map((r) =>
        panelRoute(
          {
            method: r.method,
            path: r.path,
            need: r.need,
            ...(r.owns ? { owns: r.owns } : {}),
            ...(r.upload ? { upload: true as const } : {}),
          },
          r.handler,
        ),
      ),
    ),
  )

  app.use(panelPages(env))
  return app.use(
    panelPlugin('notFound', [
      panelRoute({ method: 'get', path: '/admin/*', need: 'anonymous' }, ({ render }) =>
        render(404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText)),
      ),
    ]),
  )

  // ---------------------------------------------------------------- helpers of the routes above

  function issuerOf(p: PanelRequest): string {
    return p.person?.store?.name ? `${p.person.store.name} (Storefront)` : 'Storefront'
  }
}
