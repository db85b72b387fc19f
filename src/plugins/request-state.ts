/**
 * What the pipeline learns about a request before routing (plugins/pipeline.ts), kept on
 * Elysia's per-request context under a private key: the gate's decision — a key request's
 * service `ctx`, or a panel request's person — and the client's rate-limit bucket. Handlers
 * never read it directly: key routes get `ctx` resolved by the access macro (plugins/access.ts),
 * panel routes their person from the panel's route builder (panel/route.ts), public routes their
 * client through `clientBucketOf`.
 */
import type { Ctx } from '../kernel/context'
import type { PanelGated } from '../http/access'

const STATE = Symbol('request-state')

/** A key request's ctx, or a panel request's decision (a Response never gets this far: the pipeline returns it). */
export type Gated = Ctx | Exclude<PanelGated, Response>

export interface RequestState {
  gated: Gated | undefined
  /** The client's rate-limit bucket (IP, or IPv6 /64), computed at most once per request. */
  clientBucket: () => string
}

type Carrier = { [STATE]?: RequestState }

export function keepState(c: object, state: RequestState): void {
  ;(c as Carrier)[STATE] = state
}

/** The gate's decision for this request; undefined for a request the pipeline did not see. */
export function gatedOf(c: object): Gated | undefined {
  return (c as Carrier)[STATE]?.gated
}

export function clientBucketOf(c: object): string {
  const state = (c as Carrier)[STATE]
  if (!state) throw new Error('no request state: the route is outside the pipeline')
  return state.clientBucket()
}
