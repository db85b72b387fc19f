/** The authorization server's secrets (codes, access and refresh tokens), their stored hashes, and the PKCE check. */
import { createHash, randomBytes } from 'node:crypto'

export const CODE_PREFIX = 'sfac_'
export const ACCESS_PREFIX = 'sfat_'
export const REFRESH_PREFIX = 'sfrt_'

/** 256 random bits, base64url, behind a prefix that says what the secret is (in logs and secret scanners). */
export const newSecret = (prefix: string): string => prefix + randomBytes(32).toString('base64url')

/** SHA-256 hex: the secrets carry 256 random bits, so a fast hash leaves nothing to brute-force. */
export const hashSecret = (secret: string): string => Bun.SHA256.hash(secret, 'hex') as unknown as string

export const isAccessToken = (raw: string): boolean => /^sfat_[A-Za-z0-9_-]{43}$/.test(raw)

/** RFC 7636 §4.1: 43–128 characters of the unreserved set. */
const VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/
/** An S256 challenge is the base64url of a SHA-256: 43 characters. */
export const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/

/** RFC 7636 §4.6: BASE64URL(SHA256(verifier)) equals the challenge. */
export function verifierMatches(verifier: unknown, challenge: string): boolean {
  if (typeof verifier !== 'string' || !VERIFIER_RE.test(verifier)) return false
  return createHash('sha256').update(verifier).digest('base64url') === challenge
}
