/**
 * Passkeys (WebAuthn) with @simplewebauthn/server: registered after sign-in, then usable instead
 * of the password. Discoverable credentials, so sign-in asks for no e-mail first. The relying
 * party is the panel's host (PUBLIC_URL's, else the request's); challenges are single-use and
 * live 5 minutes (Challenges), so a replayed assertion finds its challenge spent.
 */
import { and, eq } from 'drizzle-orm'
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server'
import { passkeys, users, type Passkey, type User } from '../../db/schema'
import { NotFound, Unauthorized, ValidationError } from '../../lib/errors'
import type { PeopleCtx } from './context'
import { countPasskeys } from './sql'
import { webauthn } from './webauthn'

export const CHALLENGE_TTL_MS = 5 * 60_000
const MAX_CHALLENGES = 10_000
const MAX_PASSKEYS = 20

/** Issued challenges, each usable once within its TTL; bounded in memory (oldest dropped first). */
export class Challenges {
  private issued = new Map<string, { expiresAt: number; userId?: string }>()
  constructor(private now: () => number) {}
  add(challenge: string, userId?: string): void {
    if (this.issued.size >= MAX_CHALLENGES) this.issued.delete(this.issued.keys().next().value!)
    this.issued.set(challenge, { expiresAt: this.now() + CHALLENGE_TTL_MS, userId })
  }
  /** True once for a live challenge (of `userId`, when given); it is spent either way. */
  take(challenge: string, userId?: string): boolean {
    const c = this.issued.get(challenge)
    if (!c) return false
    this.issued.delete(challenge)
    return c.expiresAt > this.now() && (userId === undefined || c.userId === userId)
  }
}

export interface RelyingParty {
  id: string
  name: string
  origin: string
}

export const passkeysOf = (ctx: PeopleCtx, userId: string): Passkey[] =>
  ctx.db.select().from(passkeys).where(eq(passkeys.userId, userId)).all()
export const passkeyCount = (ctx: PeopleCtx): number => countPasskeys(ctx.db.$client)

export async function registrationOptions({
  ctx,
  input,
  challenges,
}: {
  ctx: PeopleCtx
  input: { user: User; rp: RelyingParty }
  challenges: Challenges
}): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { user, rp } = input
  const existing = passkeysOf(ctx, user.id)
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name || user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({
      id: p.credentialId,
      transports: p.transports ? JSON.parse(p.transports) : undefined,
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  })
  challenges.add(options.challenge, user.id)
  return options
}

export async function registerPasskey({
  ctx,
  input,
  challenges,
}: {
  ctx: PeopleCtx
  input: { user: User; rp: RelyingParty; response: unknown; name?: unknown }
  challenges: Challenges
}): Promise<Passkey> {
  const { user, rp } = input
  if (passkeysOf(ctx, user.id).length >= MAX_PASSKEYS)
    throw new ValidationError('passkey', 'out_of_range', `At most ${MAX_PASSKEYS} passkeys`)
  let verified
  try {
    verified = await (await webauthn()).verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: (c) => challenges.take(c, user.id),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    })
  } catch {
    throw new ValidationError('passkey', 'invalid_format', 'The passkey could not be verified')
  }
  if (!verified.verified) throw new ValidationError('passkey', 'invalid_format', 'The passkey could not be verified')
  const { credential } = verified.registrationInfo
  const name = typeof input.name === 'string' && input.name.trim() ? input.name.trim().slice(0, 60) : 'Passkey'
  return ctx.db
    .insert(passkeys)
    .values({
      userId: user.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ? JSON.stringify(credential.transports) : null,
      name,
      createdAt: ctx.clock.now(),
    })
    .returning()
    .get()
}

export async function authenticationOptions({
  input,
  challenges,
}: {
  input: { rp: RelyingParty }
  challenges: Challenges
}): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: input.rp.id,
    userVerification: 'preferred',
  })
  challenges.add(options.challenge)
  return options
}

export class PasskeyRefused extends Unauthorized {
  constructor() {
    super('The passkey was not accepted')
  }
}

/**
 * Checks an assertion: a known credential, a live unspent challenge, this origin and relying
 * party, a valid signature and a counter that moved forward (when the authenticator keeps one).
 * Returns the person's id.
 */
export async function verifyPasskey({
  ctx,
  input,
  challenges,
}: {
  ctx: PeopleCtx
  input: { rp: RelyingParty; response: unknown }
  /** Sign-in uses the browser's ticket (passkey-signin.ts); any `take` that spends a challenge once. */
  challenges: Pick<Challenges, 'take'>
}): Promise<string> {
  const response = input.response as AuthenticationResponseJSON
  if (!response || typeof response !== 'object' || typeof response.id !== 'string') throw new PasskeyRefused()
  const pk = ctx.db.select().from(passkeys).where(eq(passkeys.credentialId, response.id)).get()
  if (!pk) throw new PasskeyRefused()
  // A reset link was issued: until it is used, the person signs in only through it (links.ts resetInTx).
  const owner = ctx.db.select({ resetPendingAt: users.resetPendingAt }).from(users).where(eq(users.id, pk.userId)).get()
  if (!owner || owner.resetPendingAt !== null) throw new PasskeyRefused()
  let result
  try {
    result = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: (c) => challenges.take(c),
      expectedOrigin: input.rp.origin,
      expectedRPID: input.rp.id,
      credential: {
        id: pk.credentialId,
        publicKey: Buffer.from(pk.publicKey, 'base64url'),
        counter: pk.counter,
        transports: pk.transports ? JSON.parse(pk.transports) : undefined,
      },
      requireUserVerification: false,
    })
  } catch {
    throw new PasskeyRefused()
  }
  if (!result.verified) throw new PasskeyRefused()
  ctx.db
    .update(passkeys)
    .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: ctx.clock.now() })
    .where(eq(passkeys.id, pk.id))
    .run()
  return pk.userId
}

export function removePasskey({ ctx, input }: { ctx: PeopleCtx; input: { userId: string; passkeyId: string } }): void {
  const gone = ctx.db
    .delete(passkeys)
    .where(and(eq(passkeys.id, input.passkeyId), eq(passkeys.userId, input.userId)))
    .returning({ id: passkeys.id })
    .all()
  if (gone.length === 0) throw new NotFound('Passkey')
}
