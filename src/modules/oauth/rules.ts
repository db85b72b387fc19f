/**
 * The authorization server's fixed rules: lifetimes, what a redirect URI may be, how a requested
 * redirect URI matches a registered one, and how scopes are capped by a person's role.
 */
import { SCOPES, type Scope } from '../../lib/scopes'
import { roleHas, type Role } from '../people'

export const CODE_TTL_MS = 60_000
export const ACCESS_TTL_MS = 3_600_000
/** A refresh token is used once; an unused one lapses after 30 days (the assistant signs in again). */
export const REFRESH_TTL_MS = 30 * 86_400_000
/** Dynamic registrations per client IP and hour. */
export const REGISTRATIONS_PER_HOUR = 20

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** https anywhere, or plain http to this machine (a desktop assistant's local listener); never a fragment. */
export function redirectUriProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length === 0) return 'a redirect URI must be a non-empty string'
  if (raw.length > 2000) return 'a redirect URI is at most 2000 characters'
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return `${JSON.stringify(raw)} is not an absolute URL`
  }
  if (u.hash || raw.includes('#')) return `${JSON.stringify(raw)} has a fragment`
  if (u.username || u.password) return `${JSON.stringify(raw)} carries credentials`
  if (u.protocol === 'https:') return undefined
  if (u.protocol === 'http:' && LOOPBACK.has(u.hostname)) return undefined
  return `${JSON.stringify(raw)} must use https, or http on 127.0.0.1, localhost or [::1]`
}

/**
 * A requested redirect URI against a registered one: the same string, or (RFC 8252 §7.3) the
 * same loopback URI on another port — a native client takes whatever port is free.
 */
export function redirectUriMatches(requested: string, registered: string): boolean {
  if (requested === registered) return true
  let a: URL
  let b: URL
  try {
    a = new URL(requested)
    b = new URL(registered)
  } catch {
    return false
  }
  if (a.protocol !== 'http:' || !LOOPBACK.has(a.hostname)) return false
  return a.protocol === b.protocol && a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search
}

/** Space-separated scopes → the known ones, in the catalogue's order; none asked for means every scope. */
export function requestedScopes(raw: string | undefined): { scopes: Scope[]; unknown: string[] } {
  const asked = (raw ?? '').split(' ').filter(Boolean)
  if (asked.length === 0) return { scopes: [...SCOPES], unknown: [] }
  const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s))
  return { scopes: SCOPES.filter((s) => asked.includes(s)), unknown }
}

/** What a role allows of `scopes`, now: a token never acts beyond the person's current role. */
export const capByRole = (scopes: readonly string[], role: Role): Scope[] =>
  SCOPES.filter((s) => scopes.includes(s) && roleHas(role, s))
