/**
 * A cookie-keeping client for the panel over app.handle: it reads pages like a browser would
 * (Set-Cookie, the form token in the page, Origin on posts), so tests read like a person's steps:
 * `await b.get('/admin/login')`, `await b.submit('/admin/login', { email, password })`.
 */
import type { Deps } from '../../src/deps'
import { createOwner, type Role } from '../../src/modules/people'
import { createStore } from '../../src/modules/platform-stores/service'
import { memberships } from '../../src/db/schema'
import { uniq } from './factories'

export const ORIGIN = 'http://localhost'

export interface Page {
  res: Response
  status: number
  text: string
  location: string | null
}

export class PanelClient {
  cookies = new Map<string, string>()
  last: Page | undefined
  /** Every Set-Cookie header seen, raw (for the attribute tests). */
  setCookies: string[] = []

  constructor(
    private handle: (req: Request) => Promise<Response>,
    readonly origin = ORIGIN,
    readonly headers: Record<string, string> = {},
  ) {}

  get sid(): string | undefined {
    return this.cookies.get('__Host-sid')
  }

  private cookieHeader(): string | undefined {
    if (this.cookies.size === 0) return undefined
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  private keep(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      this.setCookies.push(c)
      const [pair] = c.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq)
      const value = pair!.slice(eq + 1)
      if (/max-age=0/i.test(c) || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  async request(
    method: string,
    path: string,
    init: { body?: string | FormData; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    const headers: Record<string, string> = { ...this.headers, ...init.headers }
    const cookie = this.cookieHeader()
    if (cookie && !('cookie' in headers)) headers.cookie = cookie
    const res = await this.handle(new Request(this.origin + path, { method, headers, body: init.body }))
    this.keep(res)
    const page = { res, status: res.status, text: await res.text(), location: res.headers.get('location') }
    this.last = page
    return page
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, { headers })

  /** The form token on the last page (the hidden `_csrf` field). */
  formToken(): string | undefined {
    return /name="_csrf" value="([^"]+)"/.exec(this.last?.text ?? '')?.[1]
  }

  /** A form POST as the page would send it: urlencoded, this origin, the page's form token (unless told otherwise). */
  async submit(
    path: string,
    fields: Record<string, string> = {},
    opts: { origin?: string | null; token?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    const token = opts.token === undefined ? this.formToken() : opts.token
    const body = new URLSearchParams({ ...(token ? { _csrf: token } : {}), ...fields }).toString()
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...opts.headers }
    const origin = opts.origin === undefined ? this.origin : opts.origin
    if (origin !== null) headers.origin = origin
    return this.request('POST', path, { body, headers })
  }

  /**
   * A multipart POST as the picture form sends it: the page's form token first, then each file
   * as a `file` part. `json`: as the editor's script sends one (Accept: application/json, token
   * in `x-form-token` instead of the body).
   */
  async upload(
    path: string,
    files: { name: string; bytes: Uint8Array | string; type?: string }[],
    opts: { token?: string | null; json?: boolean; fields?: Record<string, string> } = {},
  ): Promise<Page & { json: any }> {
    const token = opts.token === undefined ? this.formToken() : opts.token
    const form = new FormData()
    if (token && !opts.json) form.append('_csrf', token)
    for (const [k, v] of Object.entries(opts.fields ?? {})) form.append(k, v)
    for (const f of files) form.append('file', new File([f.bytes], f.name, { type: f.type ?? 'image/jpeg' }))
    const headers: Record<string, string> = { origin: this.origin }
    if (opts.json) {
      headers.accept = 'application/json'
      if (token) headers['x-form-token'] = token
    }
    return withJson(await this.request('POST', path, { body: form, headers }))
  }

  /**
   * Reads `from` (for its form token), then posts the form: a person's step, or a hand-made post with a valid token.
   */
  async submitFrom(from: string, path: string, fields: Record<string, string> = {}): Promise<Page> {
    await this.get(from)
    if (!this.formToken()) throw new Error(`no form token on ${from} (status ${this.last?.status})`)
    return this.submit(path, fields)
  }

  /** A JSON POST as the panel script sends it (form token in `x-form-token`). */
  async postJson(path: string, value: unknown, opts: { token?: string | null } = {}): Promise<Page & { json: any }> {
    const token = opts.token === undefined ? this.formToken() : opts.token
    const headers: Record<string, string> = { 'content-type': 'application/json', origin: this.origin }
    if (token) headers['x-form-token'] = token
    return withJson(await this.request('POST', path, { body: JSON.stringify(value), headers }))
  }
}

/** The page with its body read as JSON (undefined when it is not JSON). */
function withJson(page: Page): Page & { json: any } {
  try {
    return { ...page, json: JSON.parse(page.text) }
  } catch {
    return { ...page, json: undefined }
  }
}

export const PASSWORD = 'correct horse battery staple'
let hashed: Promise<string> | undefined
// A cheap argon2id hash of PASSWORD (1 MiB, one pass): a verification costs its hash's own
// parameters, so the many sign-ins of the tests don't each spend the production cost (64 MiB,
// ~100–160 ms). Hashes the service itself makes (accepting an invitation, a reset) keep the real cost.
export const testPasswordHash = () =>
  (hashed ??= Bun.password.hash(PASSWORD, { algorithm: 'argon2id', memoryCost: 1024, timeCost: 1 }))

/** A store and its owner (password PASSWORD). */
export async function makeOwnerShop(
  deps: Deps,
  opts: { name?: string; email?: string; plan?: 'free' | 'pro' | 'lifetime' } = {},
) {
  const store = createStore({
    ctx: deps,
    input: { name: opts.name ?? uniq('Shop'), slug: uniq('shop').toLowerCase(), plan: opts.plan ?? 'pro' },
  })
  const email = opts.email ?? `${uniq('owner')}@example.com`
  const user = createOwner({
    ctx: deps,
    input: { storeId: store.id, email, name: 'Olga Owner', passwordHash: await testPasswordHash() },
  })
  return { store, user, email }
}

/** A store and its owner, signed in on a fresh client of `app`. */
export async function signedInOwner(
  app: { deps: Deps; app: { handle(req: Request): Promise<Response> } },
  opts: { plan?: 'free' | 'pro' | 'lifetime' } = {},
) {
  const shop = await makeOwnerShop(app.deps, opts)
  const b = new PanelClient((r) => app.app.handle(r))
  await signIn(b, shop.email)
  return { ...shop, b }
}

/** A person in `storeId` with `role` (password PASSWORD). */
export async function makeMember(deps: Deps, storeId: string, role: Role, email = `${uniq(role)}@example.com`) {
  const user = createOwner({
    ctx: deps,
    input: { storeId, email, name: `${role} person`, passwordHash: await testPasswordHash() },
  })
  if (role !== 'owner') deps.db.update(memberships).set({ role }).where(eqMembership(user.id, storeId)).run()
  return { user, email }
}

import { and, eq } from 'drizzle-orm'
const eqMembership = (userId: string, storeId: string) =>
  and(eq(memberships.userId, userId), eq(memberships.storeId, storeId))

/** Signs `client` in with e-mail and PASSWORD; returns the final page. */
export async function signIn(client: PanelClient, email: string, password = PASSWORD): Promise<Page> {
  // Already signed in: the sign-in page redirects, so sign out first, as a person would.
  if ((await client.get('/admin/login')).status === 303) {
    await client.submitFrom('/admin/account', '/admin/logout')
    await client.get('/admin/login')
  }
  return client.submit('/admin/login', { email, password })
}
