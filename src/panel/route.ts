/**
 * The one way to make a panel page: `panelRoute({ method, path, need, owns?, upload? }, handler)`.
 *
 *   panelRoute({ method: 'get', path: '/admin/team/:id/reset', need: 'team', owns: 'memberships' },
 *     ({ ctx, person, params, render }) => …)
 *
 * The declaration is the route's `access` (the gate's table, panel/gate.ts, decides on it before
 * the body is read); the handler gets what the gate resolved once — the person, the store's `ctx`,
 * the words — with the path's params typed from the path. A route that needs a store (`member` or
 * a grant) gets a person with a store and a `ctx` that are never undefined; a `signedIn` route a
 * person; an `anonymous` one maybe a person. `panelPlugin(name, routes)` mounts a file's routes,
 * hidden from OpenAPI; the shell's hook (routes.ts) has rendered the gate's refusals and checked
 * the form token before any handler runs.
 */
import { Elysia, type Context, type ResolvePath } from 'elysia'
import type { Ctx } from '../kernel/context'
import type { Role } from '../modules/people'
import type { Store } from '../modules/platform-stores'
import type { OwnedTable } from '../http/access'
import type { PanelNeed } from '../modules/people'
import { access } from '../plugins/access'
import { gatedOf } from '../plugins/request-state'
import type { PanelRequest, Person } from './gate'
import { frameOf } from './frame'
import { field, json, page, seeOther, type ResponseSet } from './respond'
import type { Frame } from './views'
import type { Words } from './words'

/** A person working in a store: its role and the service ctx acting as them there. */
export interface StorePerson extends Person {
  store: Store
  role: Role
  ctx: Ctx
}

type Answer = Response | Promise<Response>

/** What every panel handler gets. */
export interface PanelCall<Params, P, C> {
  /** The gate's decision for this request (origin, path, language, form token, person). */
  p: PanelRequest
  person: P
  ctx: C
  w: Words
  params: Params
  query: Record<string, string | undefined>
  /** The parsed body (none for an upload: its handler streams it). */
  body: unknown
  /** A form field's text, undefined when absent or not text. */
  field(name: string): string | undefined
  set: ResponseSet
  request: Request
  /** A page in the panel's frame, with the panel's headers (respond.ts `page`). */
  render(status: number, build: (f: Frame) => string, extra?: Record<string, string>): Promise<Response>
  seeOther(location: string, cookie?: string): Response
  /** JSON for the page's own script (the passkey ceremonies). */
  json(status: number, value: unknown, cookie?: string): Response
}

/** What a page in a store needs: any member, or a role's grant. */
export type StoreNeed = Exclude<PanelNeed, 'anonymous' | 'signedIn'>

interface Spec<Path extends string, N extends PanelNeed> {
  method: 'get' | 'post' | 'delete'
  path: Path
  need: N
  /** The table whose `:id` record must be the person's store's (a 403 before the handler otherwise). */
  owns?: OwnedTable
  /** The body is files, streamed by the handler (parse: 'none'; it checks the form token itself). */
  upload?: true
}

/** A route the builder made, ready for `panelPlugin`. */
export interface PanelRoute {
  method: 'get' | 'post' | 'delete'
  path: string
  access: { panel: PanelNeed; owns?: OwnedTable; upload?: true }
  handle: (c: Context) => Answer
}

/** Every handler the builder made: the architecture test checks each /admin route's handler is one. */
const made = new WeakSet<object>()
export const madeByPanelRoute = (handler: unknown): boolean => typeof handler === 'function' && made.has(handler)

const isPanelRequest = (g: object): g is PanelRequest => 'panel' in g && 'w' in g

/** The gate's decision, when this request went through the panel's gate. */
export function panelRequestOf(c: object): PanelRequest | undefined {
  const g = gatedOf(c)
  return g && isPanelRequest(g) ? g : undefined
}

/** The gate refused nothing the handler relies on: a route outside the pipeline fails closed. */
class NotGated extends Error {
  constructor(path: string) {
    super(`panel route ${path} ran without the panel gate's decision`)
  }
}

type PersonFor<N> = N extends 'anonymous' ? Person | undefined : N extends 'signedIn' ? Person : StorePerson
type CtxFor<N> = N extends 'anonymous' | 'signedIn' ? Ctx | undefined : Ctx
interface Resolved<N> {
  person: PersonFor<N>
  ctx: CtxFor<N>
}

/** What the gate resolved is what the route needs: a person for a signed-in route, a store and ctx for a store's. */
function fits<N extends PanelNeed>(need: N, r: { person: Person | undefined; ctx: Ctx | undefined }): r is Resolved<N> {
  if (need === 'anonymous') return true
  if (need === 'signedIn') return r.person !== undefined
  return r.person?.store !== undefined && r.person.role !== undefined && r.ctx !== undefined
}

/** A literal path's params by name; a path only known as a string (a page list's) has any. */
type ParamsOf<Path extends string> = string extends Path ? Record<string, string> : ResolvePath<Path>

/** The path's `:name` params are all there (the router matched the path). */
function hasParams<Path extends string>(params: Record<string, string>, path: Path): params is ParamsOf<Path> {
  return path.split('/').every((s) => !s.startsWith(':') || typeof params[s.slice(1)] === 'string')
}

export function panelRoute<const Path extends string, const N extends PanelNeed>(
  spec: Spec<Path, N>,
  handler: (call: PanelCall<ParamsOf<Path>, PersonFor<N>, CtxFor<N>>) => Answer,
): PanelRoute {
  const { need, path } = spec
  const handle = (c: Context): Answer => {
    const p = panelRequestOf(c)
    const resolved = { person: p?.person, ctx: p?.person?.ctx }
    const params = c.params
    // The gate refused what the route may not see; a route outside the pipeline fails closed.
    if (!p || !fits(need, resolved) || !hasParams(params, path)) throw new NotGated(path)
    const set = c.set
    return handler({
      p,
      person: resolved.person,
      ctx: resolved.ctx,
      w: p.w,
      params,
      query: c.query,
      body: c.body,
      field: (name) => field(c.body, name),
      set,
      request: c.request,
      render: async (status, build, extra) => page(set, status, build(await frameOf(p)), extra),
      seeOther: (location, cookie) => seeOther(set, location, cookie),
      json: (status, value, cookie) => json(set, status, value, cookie),
    })
  }
  made.add(handle)
  return {
    method: spec.method,
    path,
    access: { panel: need, ...(spec.owns ? { owns: spec.owns } : {}), ...(spec.upload ? { upload: true } : {}) },
    handle,
  }
}
/** A file's panel routes as one Elysia plugin, each with its `access`, hidden from OpenAPI. */
export function panelPlugin(name: string, routes: readonly PanelRoute[]) {
  const app = new Elysia({ name }).use(access)
  for (const r of routes) {
    // An upload's body streams to disk in its handler (products/images/staging.ts), never parsed whole.
    const hook = { access: r.access, detail: { hide: true }, ...(r.access.upload ? { parse: 'none' as const } : {}) }
    if (r.method === 'get') app.get(r.path, r.handle, hook)
    else if (r.method === 'delete') app.delete(r.path, r.handle, hook)
    else app.post(r.path, r.handle, hook)
  }
  return app
}
