/**
 * The `access` route option, declared once on every /api and /mcp route:
 *
 *   .put('/:id', ({ ctx, params, body }) => …, { access: { scope: 'products:write', owns: 'products' }, … })
 *   .post('/api/orders', ({ body }) => port.checkout.submit(…), { access: { public: 'orders' }, … })
 *
 * From it: the gate's table (http/access.ts, compiled at startup), the OpenAPI `security` and
 * the scope/plan sentence that opens the route's description, the MCP tools' metadata and the
 * protected-route tests. Key routes get `ctx` (kernel/context.ts), which the gate built before
 * the body was parsed; what else a handler reaches is the narrow port its module's route
 * factory takes (e.g. `publicOrderRoutes(port)`), bound by the composition root — never `Deps`.
 */
import { Elysia } from 'elysia'
import type { Ctx } from '../kernel/context'
import { DECLARED, OWNED_TABLES, type Access } from '../http/access'
import { Unauthorized } from '../lib/errors'
import { gatedOf } from './request-state'
import { getTableName } from 'drizzle-orm'

function sentence(a: Access): string {
  if ('public' in a || 'panel' in a) return ''
  if ('key' in a) return 'Any valid API key. '
  const plan = a.feature ? ` Needs a Pro or Lifetime plan (feature \`${a.feature}\`).` : ''
  return `Scope: \`${a.scope}\`.${plan}`
}

/**
 * A key route's `ctx`, resolved from the gate's decision (plugins/request-state.ts). Fails closed:
 * a key route the gate did not pass (a route missing from its table) answers 401.
 */
function resolveKeyCtx(c: object): { ctx: Ctx } {
  const gated = gatedOf(c)
  if (!gated || 'panel' in gated) throw new Unauthorized()
  return { ctx: gated }
}

export const access = new Elysia({ name: 'access' }).macro({
  access: (a: Access) => ({
    // Elysia dedupes macro applications by this seed (a table object does not serialize).
    seed: JSON.stringify({ ...a, owns: 'owns' in a && a.owns ? getTableName(OWNED_TABLES[a.owns]) : undefined }),
    detail: { security: 'public' in a || 'panel' in a ? [] : [{ bearerAuth: [] }] },
    introspect(hook: Record<string, unknown>) {
      hook[DECLARED] = a
      // A new object: a detail shared by two routes must not get the sentence twice.
      const detail = (hook.detail ?? {}) as { description?: string }
      hook.detail = { ...detail, description: sentence(a) + (detail.description ?? '') }
    },
    // Key routes get their `ctx`; public routes have none (their handler's port is what they
    // reach); panel routes read their person through `panelOf` and check session, role and
    // form token in the panel's own hook (panel/routes.ts).
    ...('public' in a || 'panel' in a ? {} : { resolve: resolveKeyCtx }),
  }),
})
