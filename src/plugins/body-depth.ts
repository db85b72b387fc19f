/**
 * Refuses request bodies nested deeper than MAX_BODY_DEPTH with 400 VALIDATION_ERROR
 * (`details.reason: "too_deep"`), after parsing and before validation.
 *
 * Why: when a body fails its schema, Elysia's ValidationError JSON-stringifies the whole value
 * into its message. For a 200 KB body such as `[[[[…]]]]` (100,000 levels) that recursion
 * overflows the stack only after ~5 s of CPU, and the request then ended as a 500: found by
 * tests/resilience/fuzz.ts. JSON.parse itself copes (~100 ms at 1 MiB). No valid body of this
 * API nests deeper than 4 levels, so 32 leaves room. Multipart and urlencoded bodies (whose
 * fields Elysia may JSON-parse) pass the same check.
 */
import { Elysia } from 'elysia'
import { ValidationError } from '../lib/errors'

export const MAX_BODY_DEPTH = 32

/** Iterative (a recursive walk would overflow on exactly the bodies it exists to refuse). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length) {
    const [v, depth] = stack.pop()!
    if (depth > max) return true
    const children = Array.isArray(v) ? v : Object.values(v as object)
    for (const c of children) if (c !== null && typeof c === 'object') stack.push([c, depth + 1])
  }
  return false
}

export const bodyDepth = new Elysia({ name: 'body-depth' }).onTransform({ as: 'global' }, ({ body }) => {
  if (nestsDeeperThan(body, MAX_BODY_DEPTH)) {
    throw new ValidationError('body', 'too_deep', `The request body nests deeper than ${MAX_BODY_DEPTH} levels`)
  }
})
