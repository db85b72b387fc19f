/**
 * The panel's side of the gate (http/gate.ts hands it every /admin request, before the body is
 * read): the same-origin check on state-changing requests, the body limit, the session cookie
 * (never an API key), the current store (the switcher's choice, else the person's first), its
 * suspension, the role's grant and the store of an `:id` record. It decides; the panel's
 * before-handle hook (routes.ts) renders what it decided — sign in first, 403, 402 — and checks
 * the form token once the body is parsed. Nothing here writes but a session's lastSeenAt.
 */
import type { StoreCache } from '../db/cache'
import { ctxFor, type ActivityNote, type Ctx, type CtxBase } from '../kernel/context'
import type { Role, Session, User } from '../modules/people'
import type { Store } from '../modules/platform-stores'
import type { OwnedTable, PanelGated, SessionGate, SessionPolicy } from '../http/access'
import { limitUndeclaredBody } from '../http/body-limit'
import { activityNote } from '../http/gate'
import {
  formTokenOf,
  resolveSession,
  roleHas,
  setSessionStore,
  storesOfPerson,
  tokenFromCookie,
} from '../modules/people'
import { getStore } from '../modules/platform-stores'
import { uploadsBodyLimit } from '../modules/products'
import { panelWords, type PanelLanguage, isPanelLanguage, fromAcceptLanguage, type Words } from './words'

export const PANEL_MAX_BODY = 1024 * 1024

export type Denial =
  | { status: 303; location: string }
  | { status: 403; kind: 'forbidden' | 'crossSite' | 'noStore' }
  | { status: 402; kind: 'suspended' }

export interface Person {
  user: User
  session: Session
  stores: { storeId: string; name: string; role: Role }[]
  /** The store being worked in, its role, and the service ctx acting as this person there. */
  store?: Store
  role?: Role
  ctx?: Ctx
}

export interface PanelRequest {
  readonly panel: true
  origin: string
  path: string
  ip: string
  userAgent: string | null
  lang: PanelLanguage
  w: Words
  /** The cookie's session id, when it names a live session (complete or pending). */
  token?: string
  /** The session's form token (derived from its id). */
  formToken?: string
  /** A session that still owes its second step. */
  pending?: { session: Session; user: User }
  person?: Person
  deny?: Denial
  /**
   * A streamed upload (the picture form): its body is not parsed before the handler, so the form
   * token it carries is checked by the handler once the body is staged (or from `x-form-token`).
   */
  upload?: true
}

/** Same origin: `Origin` names this origin, or (no Origin) `Sec-Fetch-Site: same-origin`. */
export function sameOrigin(request: Request, origin: string): boolean {
  const o = request.headers.get('origin')
  if (o !== null) return o === origin
  return request.headers.get('sec-fetch-site') === 'same-origin'
}

/**
 * Where `next` may send a person after sign-in: a same-origin path under `/admin`, or an
 * assistant's authorization request (its consent page; it carries its client's parameters, so it
 * may be longer), in printable ASCII (a Location header carries nothing else). Anything else is
 * ignored, so the caller falls back to `/admin`.
 */
export function safeNext(next: unknown): string | undefined {
  if (typeof next !== 'string' || !/^[\x21-\x7e]+$/.test(next)) return undefined
  if (next.startsWith('//') || next.includes('\\')) return undefined
  if (/^\/oauth\/authorize(?:[?#]|$)/.test(next)) return next.length > 4096 ? undefined : next
  if (!next.startsWith('/admin') || next.length > 512) return undefined
  return /^\/admin(?:[/?#]|$)/.test(next) ? next : undefined
}

/** A form post names its verb by its last path segment (`…/:id/delete`); a post to the record itself updates it. */
function panelNote(note: ActivityNote, path: string, id: string | undefined): ActivityNote {
  if (id === undefined) return note
  const last = path.split('/').at(-1)
  return last === id ? { ...note, verb: 'update' } : note
}

export class PanelGate implements SessionGate {
  constructor(private deps: CtxBase & { cache: StoreCache }) {}

  originOf(request: Request): string {
    if (this.deps.config.publicUrl) return new URL(this.deps.config.publicUrl).origin
    const url = request.url
    return url.slice(0, url.indexOf('/', url.indexOf('//') + 2))
  }

  check(
    request: Request,
    policy: SessionPolicy,
    id: string | undefined,
    ip: () => string,
    storeOf: (table: OwnedTable, id: string) => string | undefined,
  ): PanelGated {
    const { deps } = this
    const url = request.url
    const pathStart = url.indexOf('/', url.indexOf('//') + 2)
    const q = url.indexOf('?', pathStart)
    const path = q === -1 ? url.slice(pathStart) : url.slice(pathStart, q)
    const origin = this.originOf(request)
    const p: PanelRequest = {
      panel: true,
      origin,
      path,
      ip: ip(),
      userAgent: request.headers.get('user-agent'),
      lang: 'en',
      w: panelWords('en'),
    }
    const changing = request.method !== 'GET' && request.method !== 'HEAD'
    if (changing) {
      const max = policy.upload ? uploadsBodyLimit(deps.config) : PANEL_MAX_BODY
      const length = Number(request.headers.get('content-length') ?? 0)
      if (length > max)
        return new Response('Request body too large\n', {
          status: 413,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        })
      if (length === 0) limitUndeclaredBody(request, max)
      if (policy.upload) p.upload = true
    }

    deps.cache.syncExternal() // a suspension or reinstatement committed by the CLI's connection
    const people = { db: deps.db, clock: deps.clock, config: deps.config }
    const token = tokenFromCookie(request.headers.get('cookie'))
    const resolved = token ? resolveSession({ ctx: people, input: { token } }) : undefined
    if (resolved && token) {
      p.token = token
      p.formToken = formTokenOf(token)
      if (resolved.session.pending) p.pending = resolved
    }
    const full = resolved && !resolved.session.pending ? resolved : undefined
    let person: Person | undefined
    if (full) {
      const stores = storesOfPerson({ ctx: deps, input: { userId: full.user.id } }).map((s) => ({
        storeId: s.storeId,
        name: s.name,
        role: s.role,
      }))
      person = { user: full.user, session: full.session, stores }
      const current = stores.find((s) => s.storeId === full.session.storeId) ?? stores[0]
      if (current) {
        if (current.storeId !== full.session.storeId)
          setSessionStore({ ctx: people, input: { sessionId: full.session.id, storeId: current.storeId } })
        const store = this.findStore(current.storeId)
        if (store) {
          person.store = store
          person.role = current.role
          // A write under a scope grant (the pages other issues build) is logged by write() in its
          // transaction; team and account verbs record their own lines.
          const need = policy.need
          const note =
            changing && need.includes(':')
              ? panelNote(activityNote('POST', path, need, policy.owns, id, `user:${full.user.id}`), path, id)
              : undefined
          person.ctx = ctxFor(deps, store, { kind: 'user', userId: full.user.id, role: current.role }, note)
        }
      }
      p.person = person
    }
    p.lang = this.language(request, person)
    p.w = panelWords(p.lang)

    // A state-changing request from another origin changes nothing, whoever sends it.
    if (changing && !sameOrigin(request, origin)) return this.deny(p, { status: 403, kind: 'crossSite' })
    const need = policy.need
    if (need === 'anonymous') return p
    if (!person) {
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(url.slice(pathStart))}` : ''
      return this.deny(p, { status: 303, location: `/admin/login${next}` })
    }
    if (need === 'signedIn') return p
    if (!person.store || !person.role) return this.deny(p, { status: 403, kind: 'noStore' })
    // Nothing of a suspended store is shown or changed until payment is recorded (contract).
    if (person.store.status === 'suspended') return this.deny(p, { status: 402, kind: 'suspended' })
    if (need !== 'member' && !roleHas(person.role, need)) return this.deny(p, { status: 403, kind: 'forbidden' })
    // Another store's record is a 403 page, like the API's, before the handler runs.
    if (policy.owns && id !== undefined) {
      const owner = storeOf(policy.owns, id)
      if (owner !== undefined && owner !== person.store.id) return this.deny(p, { status: 403, kind: 'forbidden' })
    }
    return p
  }

  private deny(p: PanelRequest, d: Denial): PanelRequest {
    p.deny = d
    return p
  }

  private findStore(id: string): Store | undefined {
    const { cache, db } = this.deps
    let store = cache.stores.get(id)
    if (!store) {
      store = getStore({ ctx: { db }, input: { id } })
      if (store) cache.stores.set(id, store)
    }
    return store
  }

  /** The person's choice, then the browser's, then the store's language, then English. */
  private language(request: Request, person: Person | undefined): PanelLanguage {
    const own = person?.user.language
    if (isPanelLanguage(own)) return own
    const browser = fromAcceptLanguage(request.headers.get('accept-language'))
    if (browser) return browser
    const store = person?.store?.language
    return isPanelLanguage(store) ? store : 'en'
  }
}
