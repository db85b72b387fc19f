/**
 * Who may call an operation, as the document states it: `key` operations need the bearer key,
 * `public` ones none (`security: []`). Read from the routes' own `access` declarations through
 * the gate's table (http/access.ts), so the document and the gate can't disagree.
 */
import type { AccessTable } from '../http/access'

export type Access = { kind: 'public' } | { kind: 'key'; scope: string | null }

/** `path` is the OpenAPI template (`/api/v1/products/{id}`); parameters match any segment. */
const policyAt = (table: AccessTable, method: string, path: string) =>
  table.match(method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x')).policy

export function accessOf(table: AccessTable, method: string, path: string): Access {
  const policy = policyAt(table, method, path)
  return policy.kind === 'key' ? { kind: 'key', scope: policy.scope } : { kind: 'public' }
}

/** Whether the gate counts the operation against a rate limit (it then sends the limit headers). */
export function isRateLimited(table: AccessTable, method: string, path: string): boolean {
  return policyAt(table, method, path).kind !== 'none'
}
