/**
 * `Idempotency-Key` on POST /api/orders: scoped to the store, kept
 * 24 h (jobs/prune.ts deletes older rows; reads ignore them too). Only 201s are stored, inside
 * the order's own transaction, so a record exists exactly when its order does.
 */
import { createHash } from 'node:crypto'
import type { Database } from 'bun:sqlite'
import { Conflict, ValidationError } from '../../lib/errors'
import * as sql from './sql/checkout'

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000
export const IDEMPOTENCY_HEADER = 'idempotency-key'
export const MAX_IDEMPOTENCY_KEY = 255

/** undefined when absent; 400 when empty or longer than 255 characters. */
export function parseIdempotencyKey(raw: string | null): string | undefined {
  if (raw === null) return undefined
  if (raw.length === 0 || raw.length > MAX_IDEMPOTENCY_KEY) {
    throw new ValidationError(
      'Idempotency-Key',
      'out_of_range',
      `Idempotency-Key must be 1–${MAX_IDEMPOTENCY_KEY} characters`,
    )
  }
  return raw
}

/** JSON with object keys sorted, so the same body in another key order hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export const requestHash = (body: unknown) => createHash('sha256').update(canonicalJson(body)).digest('hex')

export interface Replay {
  status: number
  body: unknown
}

/** The stored answer for this key, or undefined; 409 when the key was used with another body. */
export function findReplay(db: Database, storeId: string, key: string, hash: string, now: number): Replay | undefined {
  const row = sql.replayOf(db, storeId, key, now - IDEMPOTENCY_TTL_MS)
  if (!row) return undefined
  if (row.requestHash !== hash) {
    throw new Conflict(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used with a different request body',
      { header: 'Idempotency-Key' },
    )
  }
  return { status: row.responseStatus, body: JSON.parse(row.responseBody) }
}

export function saveReplay(
  db: Database,
  storeId: string,
  key: string,
  hash: string,
  status: number,
  body: unknown,
  now: number,
): void {
  sql.saveReplay(db, {
    storeId,
    key,
    requestHash: hash,
    responseStatus: status,
    responseBody: JSON.stringify(body),
    createdAt: now,
  })
}
