/**
 * Web Push for the signed-in person: the VAPID public key the browser subscribes with, saving
 * and forgetting a device's subscription (JSON, for the panel script: same origin and the form
 * token in `x-form-token`, checked by the shell's hook), and the section's plain forms (a test
 * notification, "Turn off" per device, preferences), which answer with a redirect to the Account page.
 */
import { PREFERENCES, PushInputError, queueTest, savePreferences, subscribe, unsubscribe } from '../../modules/push'
import type { PanelEnv } from '../env'
import { finish } from '../respond'
import { panelPlugin, panelRoute } from '../route'
import type { Words } from '../words'

const inputMessage = (w: Words, e: PushInputError) =>
  e.field === 'endpoint'
    ? e.problem === 'refused'
      ? w.push.endpointRefused
      : w.push.endpointInvalid
    : w.push.keysInvalid

export function pushRoutes(env: PanelEnv) {
  const { db, clock, config } = env
  const { pushes, secretBox } = env.deps
  const ctx = { db, clock, secretBox, config }
  const signedIn = <const Path extends string>(method: 'get' | 'post' | 'delete', path: Path) =>
    ({ method, path, need: 'signedIn' }) as const
  return panelPlugin('pushRoutes', [
    panelRoute(signedIn('get', '/admin/push/key'), ({ json }) => json(200, { publicKey: pushes.vapid.publicKey })),
    panelRoute(signedIn('post', '/admin/push/subscriptions'), async ({ p, person, body, json }) => {
      try {
        const id = await subscribe(
          ctx,
          person.user.id,
          body && typeof body === 'object' ? { ...body } : {},
          p.userAgent,
        )
        return json(201, { id })
      } catch (e) {
        if (!(e instanceof PushInputError)) throw e
        const message = inputMessage(p.w, e)
        return json(400, { error: { code: 'VALIDATION_ERROR', field: e.field, message } })
      }
    }),
    panelRoute(signedIn('delete', '/admin/push/subscriptions/:id'), ({ person, params, set, json }) => {
      if (!unsubscribe(ctx, person.user.id, params.id))
        return json(404, { error: { code: 'NOT_FOUND', message: 'No such device of yours' } })
      return finish(set, 204, null, { 'cache-control': 'no-store' })
    }),
    panelRoute(signedIn('post', '/admin/push/subscriptions/:id/delete'), ({ person, params, seeOther }) => {
      unsubscribe(ctx, person.user.id, params.id)
      return seeOther('/admin/account?done=push-off#notifications')
    }),
    panelRoute(signedIn('post', '/admin/push/test'), ({ p, person, field, request, json, seeOther }) => {
      const only = field('subscription')
      const n = queueTest(ctx, person.user.id, p.lang, only || undefined)
      if (n > 0) pushes.notify()
      const wantsJson = (request.headers.get('accept') ?? '').includes('application/json')
      if (wantsJson) return json(n > 0 ? 202 : 409, { queued: n })
      return seeOther(`/admin/account?done=${n > 0 ? 'push-test' : 'push-none'}#notifications`)
    }),
    panelRoute(signedIn('post', '/admin/push/preferences'), ({ person, field, seeOther }) => {
      const prefs = Object.fromEntries(PREFERENCES.map((k) => [k, field(k) === '1'])) as Record<
        (typeof PREFERENCES)[number],
        boolean
      >
      savePreferences(ctx, person.user.id, prefs)
      return seeOther('/admin/account?done=push-prefs#notifications')
    }),
  ])
}
