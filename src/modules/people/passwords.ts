/**
 * Passwords (contract): 10–256 characters, no composition rules; refused when in the bundled
 * list of common passwords or when they contain the e-mail's local part. Hashed with argon2id at
 * m=19 MiB, t=2, p=1, one of OWASP's recommended settings (PASSWORD_HASHING; bench/signin.ts
 * times it beside Bun's default of m=64 MiB). The parameters are in every stored hash, so hashes
 * made at another cost (Bun's default, before docs/decisions/025) keep verifying at their own.
 *
 * Each hash or verification holds its memory cost while it runs, so they run at most
 * PASSWORD_WORK_PARALLEL at once and at most PASSWORD_WORK_QUEUE wait; beyond that a sign-in
 * is refused as busy (429) rather than letting a burst take the machine's memory. The queue takes
 * turns between client addresses (password-queue.ts): a flood from many addresses does not
 * refuse a person from a clean one.
 */
import { ValidationError } from '../../lib/errors'
import { FairQueue } from './password-queue'

export const PASSWORD_MIN = 10
export const PASSWORD_MAX = 256
export const PASSWORD_WORK_PARALLEL = 2
export const PASSWORD_WORK_QUEUE = 64
/**
 * argon2id's cost for new hashes: 19 MiB (19,456 KiB), 2 passes, 1 lane — OWASP's first
 * recommended setting. Two at once hold 38 MiB where Bun's default (64 MiB) held 128 MiB.
 */
export const PASSWORD_HASHING = { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 } as const

let common: Set<string> | undefined
/**
 * The 49,000 most common passwords of zxcvbn-ts's list (leaked-password corpora), lower-cased;
 * only those long enough to pass the length rule are kept (~4,000). The package (all of
 * zxcvbn-ts's word lists, ~6 MB resident) is loaded when a password is first set, not at start.
 */
function commonPasswords(): Set<string> {
  if (!common) {
    const { dictionary } = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common')
    const list = (dictionary as Record<string, string[]>)['passwords-common'] ?? []
    common = new Set(list.filter((p) => p.length >= PASSWORD_MIN).map((p) => p.toLowerCase()))
  }
  return common
}

export type PasswordProblem = 'too_short' | 'too_long' | 'common' | 'contains_email'

/** Why a new password is refused, or undefined when it is fine. */
export function passwordProblem(password: string, email: string): PasswordProblem | undefined {
  const length = [...password].length
  if (length < PASSWORD_MIN) return 'too_short'
  if (length > PASSWORD_MAX) return 'too_long'
  const lower = password.toLowerCase()
  if (commonPasswords().has(lower)) return 'common'
  const local = email.split('@')[0]!.toLowerCase()
  // A one- or two-letter local part would refuse half of all passwords: it's not a guessable piece.
  if (local.length >= 3 && lower.includes(local)) return 'contains_email'
  return undefined
}

export function checkNewPassword(password: unknown, email: string): string {
  if (typeof password !== 'string' || password === '') throw new ValidationError('password', 'required')
  const problem = passwordProblem(password, email)
  if (problem)
    throw new ValidationError(
      'password',
      problem === 'too_long' ? 'too_long' : problem === 'too_short' ? 'out_of_range' : 'not_allowed',
      undefined,
      { problem },
    )
  return password
}

/**
 * One per process, like the thread pool it bounds: two app instances in one test process share
 * the machine's memory all the same.
 */
export const passwordQueue = new FairQueue(PASSWORD_WORK_PARALLEL, PASSWORD_WORK_QUEUE)

/** `address`: the client's (an IP, or its IPv6 /64), whose turn in the queue this takes. */
export const hashPassword = (password: string, address = ''): Promise<string> =>
  passwordQueue.run(address, () => Bun.password.hash(password, PASSWORD_HASHING))

let dummy: Promise<string> | undefined
/** argon2id verifications run so far in this process: tests check that no sign-in answer skips one. */
export const passwordWork = { verifications: 0 }
/**
 * Verifies against the stored hash, or, for an unknown e-mail or a person without a password,
 * against a dummy hash of the same cost: both answers take the same time.
 */
export function verifyPassword(password: string, hash: string | null | undefined, address = ''): Promise<boolean> {
  const target =
    hash ?? (dummy ??= Bun.password.hash('not-a-password: the cost of a real verification', PASSWORD_HASHING))
  return passwordQueue.run(address, async () => {
    passwordWork.verifications++
    const ok = await Bun.password.verify(password, await target, 'argon2id')
    return ok && !!hash
  })
}
