/**
 * "Confirm it's you" (docs/panel.md, "Security"): the sensitive changes — the password, two-step
 * on/off/re-enrol, adding or removing a passkey, creating an API key, adding a webhook, inviting,
 * changing a role, removing a person, an owner's reset link — need a sign-in proof (password,
 * passkey or two-step code) from the last 10 minutes, recorded on the session (`provedAt`).
 *
 * `confirmFirst` is the one check, called at the top of such a form handler: with a recent proof it
 * returns undefined and the handler goes on. Without one it answers a page asking for a proof
 * whose forms post back to the same URL with the same fields (hidden) plus the proof, so once the
 * proof holds the handler carries on with that same request. Passwords the person typed into the
 * held form are never written back into a page: they are asked again.
 */
import type { Session } from '../modules/people'
import { checkSecondStep, passkeysOf, recordProof, throttledCheck, verifyPassword } from '../modules/people'
import type { PanelRequest } from './gate'
import type { PanelEnv } from './env'
import { field, minutes, type Req } from './respond'
import { confirmPage } from './views/confirm'

export const PROOF_MS = 10 * 60_000
export const PROOF_PASSWORD = 'confirm_password'
export const PROOF_CODE = 'confirm_code'
/** Fields the held form never carries back: the token (the page adds its own), proofs and passwords. */
const NOT_HELD = new Set(['_csrf', PROOF_PASSWORD, PROOF_CODE, 'password', 'password2', 'current'])

/** True when the session's last proof is at most 10 minutes old. */
export const hasRecentProof = (session: Pick<Session, 'provedAt'>, now: number): boolean =>
  session.provedAt !== null && now - session.provedAt <= PROOF_MS

/** The held form's fields, as (name, value) pairs to re-post. */
export function heldFields(body: unknown): [string, string][] {
  if (!body || typeof body !== 'object') return []
  const out: [string, string][] = []
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (NOT_HELD.has(name)) continue
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') out.push([name, v])
  }
  return out
}

/**
 * For a sensitive form POST by a signed-in person: undefined when the session holds a recent proof
 * or the body carries a right one (then recorded); otherwise the page asking for one (403, or 401
 * after a wrong proof, 429 once the sign-in throttle's window is full), holding the form.
 */
export async function confirmFirst(
  kit: Pick<PanelEnv, 'deps' | 'render'>,
  c: { request: Request; body: unknown; set: Req['set']; p: PanelRequest },
): Promise<Response | undefined> {
  const { p } = c
  // Only a signed-in person's form is held (its route's access says so); anything else fails closed.
  if (!p.person) throw new Error('confirm-it-is-you needs a signed-in person')
  const { user, session } = p.person
  const { db, clock, config, limiter } = kit.deps
  const people = { db, clock, config }
  if (hasRecentProof(session, clock.now())) return undefined
  const password = field(c.body, PROOF_PASSWORD)
  const code = field(c.body, PROOF_CODE)
  let error: { text: string; field: 'password' | 'code' } | undefined
  let status = 403
  const extra: Record<string, string> = {}
  if (password !== undefined || code !== undefined) {
    // Guessing here is throttled like the sign-in it stands for (the same windows).
    const subject = password !== undefined ? user.email : `two-step:${user.id}`
    const which = password !== undefined ? 'password' : 'code'
    // Counted before the check, given back when it was right (people/throttle.ts).
    const { wait, ok } = await throttledCheck(limiter, p.ip, subject, async () =>
      password !== undefined
        ? verifyPassword(password, user.passwordHash, p.ip)
        : checkSecondStep({ ctx: people, input: { user, code } }) !== undefined,
    )
    if (wait > 0) {
      error = { text: p.w.signin.tooManyAttempts(minutes(wait)), field: which }
      status = 429
      extra['retry-after'] = String(wait)
    } else if (ok) {
      session.provedAt = recordProof({ ctx: people, input: { sessionId: session.id } })
      return undefined
    } else {
      error = { text: which === 'password' ? p.w.account.wrongPassword : p.w.signin.wrongCode, field: which }
      status = 401
    }
  }
  const url = new URL(c.request.url)
  return kit.render(
    p,
    c.set,
    status,
    (f) =>
      confirmPage(f, {
        action: url.pathname + url.search,
        held: heldFields(c.body),
        password: !!user.passwordHash,
        code: user.totpEnabledAt !== null,
        passkey: passkeysOf(people, user.id).length > 0,
        error,
      }),
    extra,
  )
}
