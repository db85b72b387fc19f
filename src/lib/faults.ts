/**
 * Several faults at once. A form (the panel's) shows every fault of what was sent, each at its
 * field, instead of the first one only; a verb that checks several fields collects them with
 * `everyFault`. Over the API the body stays the first fault's (`details.field`, `details.reason`):
 * `Faults` is a ValidationError whose details are its first fault's.
 */
import { ValidationError, type ErrorReason } from './errors'

export class Faults extends ValidationError {
  constructor(readonly faults: ValidationError[]) {
    const first = faults[0]!
    const { field, reason, ...extra } = first.details as { field: string; reason: ErrorReason }
    super(field, reason, first.message, extra)
  }
}

/** One error for the list: nothing, the one fault, or all of them. */
export function faultsError(list: ValidationError[]): ValidationError | undefined {
  if (list.length === 0) return undefined
  return list.length === 1 ? list[0] : new Faults(list)
}

/** The faults an error carries (a Faults' list, or the one ValidationError). */
export const faultsOf = (e: unknown): ValidationError[] =>
  e instanceof Faults ? e.faults : e instanceof ValidationError ? [e] : []

/** The ValidationErrors `fn` throws, as a list (other errors go on). */
export function faultsIn(fn: () => unknown): ValidationError[] {
  try {
    fn()
    return []
  } catch (e) {
    if (e instanceof ValidationError) return faultsOf(e)
    throw e
  }
}

/**
 * Runs every check and returns their results; when any throws a ValidationError, throws all of
 * them together once every check has run (other errors go on at once).
 */
export function everyFault<T extends unknown[]>(...checks: { [K in keyof T]: () => T[K] }): T {
  const found: ValidationError[] = []
  const out = checks.map((check) => {
    try {
      return check()
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e
      found.push(...faultsOf(e))
      return undefined
    }
  })
  const error = faultsError(found)
  if (error) throw error
  return out as T
}
