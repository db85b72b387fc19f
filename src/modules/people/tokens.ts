/** Random secrets handed to a person once (session ids, link tokens, recovery codes) and their stored hashes. */
import { randomBytes, timingSafeEqual } from 'node:crypto'

/** 256 random bits, base64url (43 characters): session ids and one-time link tokens. */
export const randomToken = (): string => randomBytes(32).toString('base64url')

/** SHA-256 hex. The secrets are ≥ 128 random bits, so a fast hash is enough (nothing to brute-force). */
export const hashToken = (token: string): string => Bun.SHA256.hash(token, 'hex') as unknown as string

/** Well-formed token: what a cookie or a link must look like before any lookup. */
export const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/

/** The panel's form token of a session: derived from its secret id, so it is never stored and dies with it. */
export const formTokenOf = (sessionToken: string): string =>
  Bun.SHA256.hash(`form-token:${sessionToken}`, 'base64url') as unknown as string

/** Constant-time comparison of two strings of public length. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  if (x.length !== y.length) return false
  return timingSafeEqual(x, y)
}
