/**
 * A person of the panel for the panel benches: an owner written before
 * the server starts, and a session signed in over HTTP like a browser.
 */
import { fetchOnce } from './load'

export const BENCH_PASSWORD = 'correct horse battery staple'

/** Adds an owner (password BENCH_PASSWORD, cheap argon2id parameters) to `storeId` in `dataDir`; returns the e-mail. */
export async function seedOwner(dataDir: string, storeId: string, email = 'owner@bench.example'): Promise<string> {
  const { testConfig } = await import('../../src/config')
  const { createDeps, closeDeps } = await import('../../src/deps')
  const { createOwner } = await import('../../src/modules/people')
  const deps = createDeps(testConfig({ dataDir, logLevel: 'silent' }))
  try {
    // Cheap hash parameters: the bench measures pages, not the password's cost (bench/signin.ts does).
    const passwordHash = await Bun.password.hash(BENCH_PASSWORD, {
      algorithm: 'argon2id',
      memoryCost: 1024,
      timeCost: 1,
    })
    createOwner({ ctx: deps, input: { storeId, email, name: 'Bench Owner', passwordHash } })
    return email
  } finally {
    closeDeps(deps)
  }
}

const cookiesOf = (h: Headers, jar: Map<string, string>) => {
  for (const c of h.getSetCookie()) {
    const [pair] = c.split(';')
    const eq = pair!.indexOf('=')
    jar.set(pair!.slice(0, eq), pair!.slice(eq + 1))
  }
}
const header = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')

/** Signs in through /admin/login (form token, Origin) and returns the Cookie header of the session. */
export async function panelCookie(url: string, email: string, password = BENCH_PASSWORD): Promise<string> {
  const jar = new Map<string, string>()
  const login = await fetch(`${url}/admin/login`, { tls: { rejectUnauthorized: false } } as RequestInit)
  cookiesOf(login.headers, jar)
  const token = /name="_csrf" value="([^"]+)"/.exec(await login.text())?.[1]
  const body = new URLSearchParams({ ...(token ? { _csrf: token } : {}), email, password }).toString()
  const res = await fetch(`${url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url, cookie: header(jar) },
    tls: { rejectUnauthorized: false },
  } as RequestInit)
  cookiesOf(res.headers, jar)
  if (!jar.has('__Host-sid')) throw new Error(`sign-in failed: ${res.status} ${(await res.text()).slice(0, 300)}`)
  const cookie = header(jar)
  const check = await fetchOnce(`${url}/admin`, { headers: { cookie } })
  if (check.status !== 200) throw new Error(`signed in but /admin answers ${check.status}`)
  return cookie
}

/** `n` signed-in sessions of the owner, opened before the server starts; their Cookie headers. */
export async function seedSessions(dataDir: string, email: string, n: number): Promise<string[]> {
  const { testConfig } = await import('../../src/config')
  const { createDeps, closeDeps } = await import('../../src/deps')
  const { openSession, COOKIE } = await import('../../src/modules/people')
  const deps = createDeps(testConfig({ dataDir, logLevel: 'silent' }))
  try {
    const who = deps.db.$client
      .query<{ id: string; store_id: string }, [string]>(
        'SELECT u.id, m.store_id FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.email = ?',
      )
      .get(email)!
    return Array.from({ length: n }, () => {
      const { token } = openSession({ ctx: deps, input: { userId: who.id, storeId: who.store_id } })
      return `${COOKIE}=${token}`
    })
  } finally {
    closeDeps(deps)
  }
}
