/**
 * What every request goes through before routing: a request id, the redirect to https behind a
 * proxy, and the gate (http/gate.ts), which leaves a key request's `ctx` on the request's own
 * context for its handler (plugins/access.ts types it). Nothing per request is kept elsewhere.
 */
import { Elysia } from 'elysia'
import type { Deps } from '../context'
import type { Gate } from '../http/gate'
import { clientIp } from '../lib/client-ip'

export function pipeline(deps: Deps, gate: Gate) {
  let counter = 0
  return new Elysia({ name: 'pipeline' }).onRequest((c) => {
    const { request, set, server } = c
    const requestId = (++counter).toString(36) + Date.now().toString(36)
    set.headers['x-request-id'] = requestId
    const url = request.url
    const pathStart = url.indexOf('/', url.indexOf('//') + 2)
    const q = url.indexOf('?', pathStart)
    const path = q === -1 ? url.slice(pathStart) : url.slice(pathStart, q)
    if (deps.config.trustProxy && path !== '/health' && request.headers.get('x-forwarded-proto') !== 'https') {
      const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? 'localhost'
      const origin = deps.config.publicUrl ?? `https://${host}`
      return new Response(null, { status: 301, headers: { location: origin + url.slice(pathStart) } })
    }
    const out = c as unknown as { app: Deps; ctx: unknown }
    out.app = deps
    out.ctx = gate.check(request, path, () => clientIp(request, server, deps.config.trustProxy), set.headers as Record<string, string>)
  })
}
