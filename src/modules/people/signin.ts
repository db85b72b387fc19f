/**
 * Password sign-in. An unknown e-mail and a wrong password get the same error after the same
 * argon2id work (passwords.ts verifies a dummy hash); throttled per IP + e-mail (throttle.ts).
 * A person with two-step sign-in gets a pending session that opens only the second step.
 */
import { RateLimited, Unauthorized } from '../../lib/errors'
import type { PeopleCtx } from './context'
import { verifyPassword } from './passwords'
import { rehashIfOld } from './rehash'
import { openSession, type Opened } from './sessions'
import { storesOf, userByEmail } from './lookups'
import { throttledCheck, type Counter } from './throttle'

export class SignInFailed extends Unauthorized {
  constructor() {
    super('Wrong e-mail or password')
  }
}

export interface SignInInput {
  email: unknown
  password: unknown
  ip: string
  userAgent: string | null
  /** The session the request came with, ended in the same transaction (rotation). */
  replacing?: string
}

export interface SignedIn {
  opened: Opened
  /** True when the second step is still due. */
  pending: boolean
}

export async function signInWithPassword({
  ctx,
  input,
  throttle,
}: {
  ctx: PeopleCtx
  input: SignInInput
  throttle: Counter
}): Promise<SignedIn> {
  const email = typeof input.email === 'string' ? input.email.trim().slice(0, 254) : ''
  const password = typeof input.password === 'string' ? input.password.slice(0, 1024) : ''
  const user = email ? userByEmail(ctx.db, email) : undefined
  // Counted before the hash, given back when it was right (throttle.ts).
  const { wait, ok } = await throttledCheck(throttle, input.ip, email, () =>
    verifyPassword(password, user?.passwordHash, input.ip),
  )
  if (wait > 0) throw new RateLimited(wait)
  if (!ok || !user) throw new SignInFailed()
  await rehashIfOld(ctx, user.id, user.passwordHash!, password, input.ip)
  const pending = user.totpEnabledAt !== null
  const storeId = storesOf(ctx.db, user.id)[0]?.storeId ?? null
  const opened = openSession({
    ctx,
    input: { userId: user.id, storeId, pending, userAgent: input.userAgent, ip: input.ip, replacing: input.replacing },
  })
  return { opened, pending }
}
