/**
 * What the catalog pages (products, settings, API keys, webhooks) share besides the panel's wiring
 * (env.ts `PanelEnv`, which routes.ts hands them): the page descriptor, form fields, and the one
 * mapping from a module verb's error to a message at its field in the person's words.
 * Each page module returns route definitions; routes.ts registers them with their `access`.
 */
import type { OwnedTable } from '../../http/access'
import { AppError, PlanRequired } from '../../lib/errors'
import type { Problem } from './controls'
import { faultsOf } from '../../lib/faults'
import { minorDigits } from '../../lib/money'
import { sameSecret } from '../../modules/people'
import type { Ctx } from '../../kernel/context'

/** A store page handler's request: what the route builder hands it (route.ts), a person working in the store. */
export type PageReq = PanelCall<Record<string, string>, StorePerson, Ctx>

export interface PageRoute {
  method: 'get' | 'post'
  path: string
  /** A store page: its person works in the store (a role's grant, or any member). */
  need: StoreNeed
  owns?: OwnedTable
  /** The body is files, streamed by the handler (parse: 'none'; the handler checks the form token with `tokenOk`). */
  upload?: true
  handler: (c: PageReq) => Response | Promise<Response>
}

import { field } from '../respond'
import type { PanelCall, StoreNeed, StorePerson } from '../route'
import type { Words } from '../words'
export { field }

/** An upload route's form token: the streamed body's `_csrf` field, or the script's `x-form-token` header. */
export const tokenOk = (c: PageReq, fields: Record<string, string>) => {
  const { p } = c
  return !!p.formToken && sameSecret(fields._csrf ?? c.request.headers.get('x-form-token') ?? '', p.formToken)
}

/** The `?page=` of a paged list: a whole number from 1 (anything else is the first page). */
export const pageParam = (query: Record<string, string | undefined>) =>
  Math.min(1e6, Math.max(1, Math.floor(Number(query.page)) || 1))

/** An amount as a form shows it: the currency's decimals ("12.50", "1200" in JPY), empty for none. */
export const amountText = (major: number | null | undefined, currency: string) =>
  major === null || major === undefined ? '' : major.toFixed(minorDigits(currency))

/** A checkbox: present (any value) when ticked. */
export const ticked = (body: unknown, name: string) => field(body, name) !== undefined

/**
 * A money or count field: '' → undefined, "12,50" → 12.5,
 * anything else stays text so the schema refuses it at its field.
 */
export function numberField(body: unknown, name: string): number | string | undefined {
  const s = (field(body, name) ?? '').trim()
  if (s === '') return undefined
  const n = s.replace(',', '.')
  return /^-?\d+(\.\d+)?$/.test(n) ? Number(n) : s
}

export type { Problem } from './controls'

/** A verb's error as the person reads it; undefined for errors that are not the person's to fix. */
export function problemOf(e: unknown, w: Words): Problem | undefined {
  if (e instanceof PlanRequired) return { message: w.problems.planLimit, upgradeUrl: e.upgradeUrl }
  if (!(e instanceof AppError) || e.status >= 500) return undefined
  const d = (e.details ?? {}) as {
    field?: string
    reason?: string
    shortcodes?: string[]
    currency?: string
    limit?: number
    expected?: string
    minimum?: number
    decimals?: number
  }
  const f = d.field
  if (e.code === 'DUPLICATE_SLUG') return { field: f ?? 'name', message: w.problems.slugTaken }
  if (e.code === 'CURRENCY_LOCKED') return { field: 'currency', message: w.problems.currencyLocked(d.currency ?? '') }
  if (e.code === 'LIMIT_REACHED') return { message: w.webhooks.limitReached(d.limit ?? 0) }
  if (!f) return e.code === 'VALIDATION_ERROR' ? { message: w.problems.err.other! } : undefined
  if (f === 'comparePrice' && d.reason === 'out_of_range') return { field: f, message: w.problems.comparePriceAbove }
  if (d.expected === 'integer') return { field: f, message: w.problems.wholeNumber }
  if (d.decimals !== undefined) return { field: f, message: w.problems.decimals(d.decimals) }
  if (d.reason === 'out_of_range' && d.minimum !== undefined)
    return { field: f, message: w.problems.atLeast(d.minimum) }
  if (f === 'whatsappNumber' && d.reason === 'invalid_format') return { field: f, message: w.problems.phoneInvalid }
  if (f === 'timezone') return { field: f, message: w.settings.timezoneInvalid }
  if (f === 'whatsappTemplate' && d.shortcodes)
    return { field: f, message: w.problems.shortcodesUnknown(d.shortcodes.join(', ')) }
  return { field: f, message: w.problems.err[d.reason ?? 'other'] ?? w.problems.err.other! }
}

/**
 * A refused form's problems, each in the person's words: every fault a `Faults` carries (the
 * schema's and the module's rules', found together), else the one error's. `special` gives a
 * page's own words for an error first. Undefined when the error is not the person's to fix.
 */
export function problemsOf(
  e: unknown,
  w: Words,
  special?: (e: AppError) => Problem | undefined,
): Problem[] | undefined {
  const one = (x: unknown) => (x instanceof AppError ? special?.(x) : undefined) ?? problemOf(x, w)
  const list = faultsOf(e)
  if (list.length < 2) {
    const p = one(e)
    return p && [p]
  }
  return list.map((f) => one(f) ?? { field: String(f.details?.field ?? ''), message: w.problems.err.other! })
}

/**
 * The refusal a form shows: the messages by control id (the first per control; `idOf` names a
 * page's own control for an API field) and the problem that belongs to no field, if any.
 */
export function refusalOf(
  problems: Problem[],
  idOf: (apiField: string) => string = controlId,
): { problem?: Problem; errors: Record<string, string> } {
  const errors: Record<string, string> = {}
  for (const p of problems) {
    if (!p.field) continue
    const id = idOf(p.field)
    errors[id] ??= p.message
  }
  return { problem: problems.find((p) => !p.field), errors }
}

/** The form control's id for an API field: `variants[1].price` → `v1-price`, `events[0]` → `events`. */
export function controlId(apiField: string): string {
  const v = /^variants\[(\d+)\]\.(\w+)$/.exec(apiField)
  if (v) return `v${v[1]}-${v[2]}`
  return apiField.replace(/\[\d+\].*$/, '')
}
