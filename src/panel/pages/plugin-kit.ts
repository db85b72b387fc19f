/**
 * What a store page needs to answer: the builder's call, the frame a view renders in (frame.ts),
 * and the page / redirect Responses with the panel's headers (CSP, no-store, same-origin referrer).
 */
import type { PanelRequest } from '../gate'
import { frameOf } from '../frame'
import type { Frame } from '../views'

import { field, finish, page, PANEL_CSP, seeOther, type ResponseSet } from '../respond'
import type { PanelCall, StorePerson } from '../route'
import type { Ctx } from '../../kernel/context'

export { field, finish, frameOf, PANEL_CSP, seeOther }

export type Set = ResponseSet
/** A store page's call from the route builder (route.ts): its person works in the store. */
export type Handler = PanelCall<Record<string, string>, StorePerson, Ctx>

/** A panel page with the panel's headers (respond.ts `page`). */
export const htmlPage = (set: Set, status: number, text: string) => page(set, status, text)

export async function render(
  c: { p: PanelRequest; set: ResponseSet },
  status: number,
  build: (f: Frame) => string,
): Promise<Response> {
  return htmlPage(c.set, status, build(await frameOf(c.p)))
}

/** Positive integer from a query value, else `fallback`. */
export const intParam = (v: string | undefined, fallback: number, max = 1_000_000) => {
  const n = Number(v)
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback
}
