/**
 * Passkey sign-in challenges bound to the browser that asked. The options request is anonymous,
 * so the challenges it made used to sit in one bounded list shared by everyone: a flood of
 * options requests pushed a real person's challenge out before they could use it.
 *
 * Now the server keeps nothing when it hands out options. The browser gets a ticket in a
 * short-lived cookie (`__Host-passkey`: a random nonce and an expiry), and the challenge is an
 * HMAC of that ticket under a key of this process. Signing in needs the ticket back (only the
 * browser that asked has it) and an assertion over exactly that challenge; the ticket's nonce is
 * then spent until it would have expired, so an assertion is never accepted twice. However many
 * options anyone asks for, no one's challenge is voided. The spent list grows only with
 * assertions over challenges this process made — a person's sign-in, or an attempt counted by the
 * throttle's per-address windows — and entries leave it as their tickets expire. A restart voids open tickets
 * (the person taps the button again), as it voided the in-memory challenges before.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server'
import { webauthn } from './webauthn'
import { CHALLENGE_TTL_MS, type RelyingParty } from './passkeys'

export const PASSKEY_COOKIE = '__Host-passkey'
/** Options requests per client address per minute (then 429 with Retry-After). */
export const PASSKEY_OPTIONS_PER_MINUTE = 30

const TICKET_RE = /^([A-Za-z0-9_-]{22})\.(\d{13})$/

export class BrowserChallenges {
  private key = randomBytes(32)
  /** Spent nonces and when their tickets expire, in the order they were spent (≈ expiry order). */
  private spent = new Map<string, number>()

  constructor(private now: () => number) {}

  /** A new ticket for a browser, and the challenge it stands for. */
  issue(): { ticket: string; challenge: Uint8Array<ArrayBuffer> } {
    const ticket = `${randomBytes(16).toString('base64url')}.${this.now() + CHALLENGE_TTL_MS}`
    return { ticket, challenge: new Uint8Array(this.mac(ticket)) }
  }

  /** True once for a live ticket whose challenge is `challenge` (base64url); the ticket is spent either way. */
  take(ticket: string | undefined, challenge: string): boolean {
    const m = TICKET_RE.exec(ticket ?? '')
    if (!m) return false
    const now = this.now()
    const expiresAt = Number(m[2])
    if (expiresAt <= now || expiresAt > now + CHALLENGE_TTL_MS) return false
    const expected = this.mac(ticket!)
    const given = Buffer.from(challenge, 'base64url')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
    this.forgetExpired(now)
    if (this.spent.has(m[1]!)) return false
    this.spent.set(m[1]!, expiresAt)
    return true
  }

  /** Spent nonces held (for tests). */
  get spentCount(): number {
    return this.spent.size
  }

  private mac(ticket: string): Buffer {
    return createHmac('sha256', this.key).update(ticket).digest()
  }

  private forgetExpired(now: number): void {
    for (const [nonce, expiresAt] of this.spent) {
      if (expiresAt > now) break
      this.spent.delete(nonce)
    }
  }
}

/** `Set-Cookie` carrying a ticket to the browser that asked: sent back only to this origin, for 5 minutes. */
export const passkeyTicketCookie = (ticket: string): string =>
  `${PASSKEY_COOKIE}=${ticket}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=${CHALLENGE_TTL_MS / 1000}`
export const clearedPasskeyTicket = (): string =>
  `${PASSKEY_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0`

/** The ticket in a Cookie header, if any. */
export function passkeyTicketOf(header: string | null): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=')
    if (at > 0 && part.slice(0, at).trim() === PASSKEY_COOKIE) return part.slice(at + 1).trim()
  }
  return undefined
}

/** Sign-in options for a browser: the options and the ticket its cookie carries. */
export async function browserSignInOptions({
  input,
  challenges,
}: {
  input: { rp: RelyingParty }
  challenges: BrowserChallenges
}): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; ticket: string }> {
  const { ticket, challenge } = challenges.issue()
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: input.rp.id,
    userVerification: 'preferred',
    challenge,
  })
  return { options, ticket }
}
