/**
 * Web Push for the signed-in person: the VAPID public key the browser subscribes with, saving
 * and forgetting a device's subscription (JSON, for the panel script: same origin and the form
 * token in `x-form-token`, checked by the shell's hook), and the section's plain forms (a test
 * notification, "Turn off" per device, preferences), which answer with a redirect to the Account page.
 */
import { Elysia } from 'elysia'
import { PREFERENCES, PushInputError, queueTest, savePreferences, subscribe, unsubscribe } from '../../modules/push'
import { access } from '../../plugins/access'
import type { PanelEnv } from '../env'
import { pushWords, type PushWords } from '../i18n/push'
import { type Req, field, finish, json, panelOf, seeOther } from '../respond'

const inputMessage = (pw: PushWords, e: PushInputError) =>
  e.field === 'endpoint' ? (e.problem === 'refused' ? pw.endpointRefused : pw.endpointInvalid) : pw.keysInvalid

export function pushRoutes(env: PanelEnv) {
  const { db, clock, config, hidden } = env
  const { pushes, secretBox } = env.deps
  const ctx = { db, clock, secretBox, config }
  const signedIn = { access: { panel: 'signedIn' as const }, ...hidden }
  return new Elysia({ name: 'pushRoutes' })
    .use(access)
    .get('/admin/push/key', (c) => json(c.set as Req['set'], 200, { publicKey: pushes.vapid.publicKey }), signedIn)
    .post(
      '/admin/push/subscriptions',
      async (c) => {
        const p = panelOf(c)
        const set = c.set as Req['set']
        const body = (c.body && typeof c.body === 'object' ? c.body : {}) as Record<string, unknown>
        try {
          const id = await subscribe(ctx, p.person!.user.id, body, p.userAgent)
          return json(set, 201, { id })
        } catch (e) {
          if (!(e instanceof PushInputError)) throw e
          const message = inputMessage(pushWords(p.lang), e)
          return json(set, 400, { error: { code: 'VALIDATION_ERROR', field: e.field, message } })
        }
      },
      signedIn,
    )
    .delete(
      '/admin/push/subscriptions/:id',
      (c) => {
        const set = c.set as Req['set']
        if (!unsubscribe(ctx, panelOf(c).person!.user.id, c.params.id))
          return json(set, 404, { error: { code: 'NOT_FOUND', message: 'No such device of yours' } })
        return finish(set, 204, null, { 'cache-control': 'no-store' })
      },
      signedIn,
    )
    .post(
      '/admin/push/subscriptions/:id/delete',
      (c) => {
        unsubscribe(ctx, panelOf(c).person!.user.id, c.params.id)
        return seeOther(c.set as Req['set'], '/admin/account?done=push-off#notifications')
      },
      signedIn,
    )
    .post(
      '/admin/push/test',
      (c) => {
        const p = panelOf(c)
        const only = field(c.body, 'subscription')
        const n = queueTest(ctx, p.person!.user.id, p.lang, only || undefined)
        if (n > 0) pushes.notify()
        const wantsJson = (c.request.headers.get('accept') ?? '').includes('application/json')
        if (wantsJson) return json(c.set as Req['set'], n > 0 ? 202 : 409, { queued: n })
        return seeOther(c.set as Req['set'], `/admin/account?done=${n > 0 ? 'push-test' : 'push-none'}#notifications`)
      },
      signedIn,
    )
    .post(
      '/admin/push/preferences',
      (c) => {
        const prefs = Object.fromEntries(PREFERENCES.map((k) => [k, field(c.body, k) === '1'])) as Record<
          (typeof PREFERENCES)[number],
          boolean
        >
        savePreferences(ctx, panelOf(c).person!.user.id, prefs)
        return seeOther(c.set as Req['set'], '/admin/account?done=push-prefs#notifications')
      },
      signedIn,
    )
}
