/**
 * Refuses request bodies nested deeper than MAX_BODY_DEPTH with 400 VALIDATION_ERROR
 * (`details.reason: "too_deep"`), after parsing and before validation; and drops `toString` /
 * `valueOf` keys on the way (see CONVERSION_KEYS).
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

/**
 * Keys that decide how an object turns into a string. Elysia's ValidationError writes the
 * failing value into its summary with a template string, and for a body like
 * `{"code": {"toString": ""}}` that conversion throws a TypeError inside Elysia, before any
 * handler: a 500 instead of a 400 (found by the fuzzer). No field of this API has these
 * names, and unknown fields are ignored anyway (contract), so they are dropped.
 */
const CONVERSION_KEYS = ['toString', 'valueOf'] as const

/**
 * Walks the body once: true when it nests deeper than `max`; with `strip`, deletes
 * CONVERSION_KEYS from every object on the way. Iterative (a recursive walk would overflow on
 * exactly the bodies it exists to refuse).
 */
export function nestsDeeperThan(value: unknown, max: number, strip = false): boolean {
  if (value === null || typeof value !== 'object') return false
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length) {
    const [v, depth] = stack.pop()!
    if (depth > max) return true
    if (strip && !Array.isArray(v))
      for (const k of CONVERSION_KEYS) if (Object.hasOwn(v as object, k)) delete (v as Record<string, unknown>)[k]
    const children = Array.isArray(v) ? v : Object.values(v as object)
    for (const c of children) if (c !== null && typeof c === 'object') stack.push([c, depth + 1])
  }
  return false
}

export const bodyDepth = new Elysia({ name: 'body-depth' }).onTransform({ as: 'global' }, ({ body }) => {
  if (nestsDeeperThan(body, MAX_BODY_DEPTH, true)) {
    throw new ValidationError('body', 'too_deep', `The request body nests deeper than ${MAX_BODY_DEPTH} levels`)
  }
})
