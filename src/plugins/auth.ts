import { Elysia } from 'elysia'
import type { Auth, Deps } from '../context'
import { Unauthorized } from '../lib/errors'

/**
 * Gives authenticated routes `auth` (key, store, scopes). The checks themselves ran in the gate
 * before parsing; this only hands the result to the handler, and fails closed if the gate
 * somehow did not run.
 */
export const authed = (deps: Deps) =>
  new Elysia().resolve({ as: 'scoped' }, ({ request }): { auth: Auth } => {
    const auth = deps.auths.get(request)
    if (!auth) throw new Unauthorized()
    return { auth }
  })
