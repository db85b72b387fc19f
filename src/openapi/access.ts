/**
 * Who may call an operation, as the document states it: `key` operations need the bearer key,
 * `public` ones none (`security: []`).
 *
 * The one place the OpenAPI code learns about access. Today it asks the gate's path policy; when
 * access is declared per route, this function reads that declaration instead and nothing else in
 * src/openapi changes.
 */
import { policyFor } from '../plugins/policy'

export type Access = { kind: 'public' } | { kind: 'key'; scope: string | null }

/** `path` is the OpenAPI template (`/api/v1/products/{id}`); parameters match any segment. */
export function accessOf(method: string, path: string): Access {
  const policy = policyFor(method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x'))
  return policy.kind === 'key' ? { kind: 'key', scope: policy.scope } : { kind: 'public' }
}

/** Whether the gate counts the operation against a rate limit (it then sends the limit headers). */
export function isRateLimited(method: string, path: string): boolean {
  return policyFor(method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x')).kind !== 'none'
}
