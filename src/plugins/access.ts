/**
 * The `access` route option, declared once on every /api and /mcp route:
 *
 *   .put('/:id', ({ ctx, params, body }) => …, { access: { scope: 'products:write', owns: products }, … })
 *   .post('/api/orders', ({ app, body }) => …, { access: { public: 'orders' }, … })
 *
 * From it: the gate's table (http/access.ts, compiled at startup), the OpenAPI `security` and
 * the scope/plan sentence that opens the route's description, the MCP tools' metadata and the
 * protected-route tests. Key routes get `ctx` (kernel/context.ts), resolved by the gate before the
 * body is parsed; every route gets `app`, the process's wiring, for what is not a service's
 * business (caches, the checkout batcher).
 */
import { Elysia } from 'elysia'
import type { Config } from '../config'
import type { StoreCache } from '../db/cache'
import type { Db } from '../db/client'
import type { RateLimiter } from '../db/rate-limiter'
import type { Ctx } from '../kernel/context'
import type { AppendEvent } from '../kernel/events'
import type { Logger } from '../lib/log'
import type { Clock } from '../lib/time'
import type { CheckoutResult, PendingOrder } from '../modules/orders'
import type { UploadAdmission } from '../modules/products'
import type { VisitCounter } from '../modules/public-catalog'
import { DECLARED, type Access } from '../http/access'
import { Unauthorized } from '../lib/errors'
import { getTableName } from 'drizzle-orm'

function sentence(a: Access): string {
  if ('public' in a || 'panel' in a) return ''
  if ('key' in a) return 'Any valid API key. '
  const plan = a.feature ? ` Needs a Pro or Lifetime plan (feature \`${a.feature}\`).` : ''
  return `Scope: \`${a.scope}\`.${plan}`
}

/** Fails closed if the gate did not resolve a key for this route. */
function requireCtx({ ctx }: { ctx?: Ctx }): void {
  if (!ctx) throw new Unauthorized()
}

/**
 * What a route handler may reach besides its `ctx`: the pieces that are not a service's
 * business (caches, the checkout batcher, upload admission, visit counting). The composition
 * root's Deps satisfies it; a handler never sees the rest of the wiring.
 */
export interface RouteDeps {
  config: Config
  db: Db
  clock: Clock
  log: Logger
  cache: StoreCache
  limiter: RateLimiter
  appendEvent: AppendEvent
  /** Places a prepared public order (the group-commit batcher, src/checkout-batcher.ts). */
  checkout: { submit(order: PendingOrder): Promise<CheckoutResult> }
  uploads: UploadAdmission
  visits: Pick<VisitCounter, 'record'>
}

export const access = new Elysia({ name: 'access' })
  .decorate('ctx', undefined as unknown as Ctx)
  .decorate('app', undefined as unknown as RouteDeps)
  /** The client's rate-limit bucket (IP, or IPv6 /64), computed once per request by the pipeline. */
  .decorate('clientBucket', undefined as unknown as () => string)
  .macro({
    access: (a: Access) => ({
      // Elysia dedupes macro applications by this seed (a table object does not serialize).
      seed: JSON.stringify({ ...a, owns: 'owns' in a && a.owns ? getTableName(a.owns) : undefined }),
      detail: { security: 'public' in a || 'panel' in a ? [] : [{ bearerAuth: [] }] },
      introspect(hook: Record<string, unknown>) {
        hook[DECLARED] = a
        // A new object: a detail shared by two routes must not get the sentence twice.
        const detail = (hook.detail ?? {}) as { description?: string }
        hook.detail = { ...detail, description: sentence(a) + (detail.description ?? '') }
      },
      // Panel routes check their session, role and form token in the panel's own hook (panel/routes.ts).
      ...('public' in a || 'panel' in a ? {} : { beforeHandle: requireCtx }),
    }),
  })
