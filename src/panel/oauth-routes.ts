/**
 * The person's side of connecting an assistant (docs/mcp.md "Connect an assistant"):
 * `/oauth/authorize` checks the client's request, signs the person in through the panel's own
 * sign-in when needed (which comes back here through `next`), and shows the consent page; its
 * POST — same origin and form token, as every panel POST — answers the client with a code or
 * `access_denied`. The consent page's CSP lets its form lead to the client's redirect origin:
 * Chromium applies `form-action` to the redirect that follows the POST.
 */
import { ownOrigin } from '../http/origin'
import {
  approveAuthorization,
  capByRole,
  checkAuthorizeRequest,
  redirectWith,
  type AuthorizeRequest,
} from '../modules/oauth'
import type { Role } from '../modules/people'
import type { PanelRequest, Person } from './gate'
import { badAuthorizePage, consentPage, messagePage } from './views'
import { type Req, field, seeOther, PANEL_CSP } from './respond'
import { panelPlugin, panelRoute } from './route'
import type { PanelEnv } from './env'

/** The authorization request's own parameters, carried from the query to the consent form. */
const PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'scope',
  'state',
  'resource',
] as const

function paramsOf(source: (name: string) => string | undefined): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (const k of PARAMS) {
    const v = source(k)
    if (v !== undefined) out[k] = v
  }
  return out
}

export function oauthPanelRoutes(env: PanelEnv) {
  const { db, clock, config, render } = env

  function check(
    p: PanelRequest,
    request: Request,
    set: Req['set'],
    params: Record<string, string | undefined>,
  ): { refused: Promise<Response> } | { request: AuthorizeRequest } {
    const checked = checkAuthorizeRequest({
      ctx: { db, clock },
      input: { params, resource: `${ownOrigin(config, request)}/mcp` },
    })
    if ('fault' in checked) {
      const w = p.w
      return { refused: render(p, set, 400, (f) => badAuthorizePage(f, w, w.apps.badRequest[checked.fault])) }
    }
    return { request: checked.request }
  }

  function consent(
    p: PanelRequest,
    person: Person,
    set: Req['set'],
    req: AuthorizeRequest,
    params: Record<string, string | undefined>,
  ) {
    const storeId = person.store?.id ?? person.stores[0]!.storeId
    const redirect = new URL(req.redirectUri)
    const fields: Record<string, string> = {}
    for (const [k, v] of Object.entries(params)) if (v !== undefined) fields[k] = v
    if (!fields.redirect_uri) fields.redirect_uri = req.redirectUri
    return render(
      p,
      set,
      200,
      (f) =>
        consentPage(f, {
          client: req.clientName,
          redirectHost: redirect.host,
          fields,
          stores: person.stores.map((s) => ({ ...s, scopes: capByRole(req.scopes, s.role) })),
          storeId,
        }),
      { 'content-security-policy': PANEL_CSP.replace("form-action 'self'", `form-action 'self' ${redirect.origin}`) },
    )
  }

  return panelPlugin('oauthPanelRoutes', [
    panelRoute({ method: 'get', path: '/oauth/authorize', need: 'anonymous' }, (c) => {
      const { p } = c
      const set = c.set
      const params = paramsOf((k) => c.query[k])
      const checked = check(p, c.request, set, params)
      if ('refused' in checked) return checked.refused
      if (!p.person) {
        const url = new URL(c.request.url)
        return seeOther(set, `/admin/login?next=${encodeURIComponent(url.pathname + url.search)}`)
      }
      if (p.person.stores.length === 0)
        return render(p, set, 403, (f) => messagePage(f, f.w.errors.noStoreTitle, f.w.errors.noStoreText))
      return consent(p, p.person, set, checked.request, params)
    }),
    panelRoute({ method: 'post', path: '/oauth/authorize', need: 'signedIn' }, (c) => {
      const { p } = c
      const set = c.set
      const params = paramsOf((k) => field(c.body, k))
      const checked = check(p, c.request, set, params)
      if ('refused' in checked) return checked.refused
      const req = checked.request
      if (field(c.body, 'decision') !== 'allow')
        return seeOther(set, redirectWith(req.redirectUri, { error: 'access_denied', state: req.state }))
      const { person } = c
      const chosen = person.stores.find((s) => s.storeId === field(c.body, 'store'))
      if (!chosen)
        return render(p, set, 400, (f) => messagePage(f, f.w.errors.forbiddenTitle, f.w.errors.forbiddenText))
      const { code } = approveAuthorization({
        ctx: { db, clock },
        input: { request: req, userId: person.user.id, storeId: chosen.storeId, role: chosen.role as Role },
      })
      return seeOther(set, redirectWith(req.redirectUri, { code, state: req.state }))
    }),
  ])
}
