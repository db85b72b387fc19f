/**
 * Webhooks (owners): add (https URL, events) with the signing secret shown once; edit the URL and
 * events; disable and enable; rotate the secret (the new one shown once; the old one keeps
 * signing for the documented overlap, docs/webhooks.md); "Send test event"; delete after a confirmation page; each
 * endpoint's delivery log with "Retry". Every write is the API's verb (createWebhook,
 * updateWebhook, rotateSecret, deleteWebhook, retryDelivery) or the module's sendTestEvent, with
 * the body the API's schema checks, so the URL rules (https, public addresses only) and the
 * endpoint limit are the API's and show at their field.
 */
import { WEBHOOK_EVENTS } from '../../modules/webhooks'
import { AppError } from '../../lib/errors'
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  deliveryLog,
  listWebhooks,
  retryDelivery,
  rotateSecret,
  sendTestEvent,
  updateWebhook,
  WebhookCreate,
  WebhookUpdate,
  webhookUrlFaults,
} from '../../modules/webhooks'
import { faultsError, faultsIn } from '../../lib/faults'
import { checkBody } from '../../plugins/validation-errors'
import { confirmFirst } from '../confirm'
import { json } from '../respond'
import { ShownOnce } from '../shown-once'
import { guarded } from './crud'
import { frameOf } from './plugin-kit'
import { field, problemsOf, refusalOf, ticked, type PageReq, type PageRoute } from './kit'
import type { Words } from '../words'
import {
  deletePage,
  deliveriesPage,
  deliveryItems,
  editPage,
  eventId,
  hookPath,
  listPage,
  secretPage,
  type HookForm,
} from './webhooks-views'
import type { PanelEnv } from '../env'

/**
 * The form's body against the API's schema; when only other fields are refused, the URL's own
 * check (https, a public address) runs too, so a plain-http URL shows beside a missing event.
 */
async function checkHook<S extends typeof WebhookCreate | typeof WebhookUpdate>(
  c: PageReq,
  schema: S,
  form: { url: string; events: Set<string> },
): Promise<S['static']> {
  const body = { url: form.url, events: [...form.events] }
  let checked: S['static'] | undefined
  const faults = faultsIn(() => (checked = checkBody(schema, body)))
  if (checked !== undefined) return checked
  const urlRefused = faults.some((f) => String(f.details?.field).startsWith('url'))
  throw faultsError([...faults, ...(urlRefused ? [] : await webhookUrlFaults(c.ctx, form.url))])
}

/** Deliveries the log shows, newest first. */
const LOG_ROWS = 50

/** The posted URL and events. */
const readHook = (body: unknown) => ({
  url: (field(body, 'url') ?? '').trim(),
  events: new Set<string>(WEBHOOK_EVENTS.filter((e) => ticked(body, eventId(e)))),
})

/** A verb's refusal as the form shows it (undefined: not the person's to fix). */
function refused(
  c: PageReq,
  e: unknown,
  form: { url: string; events: Set<string> },
): (HookForm & { status: number }) | undefined {
  const w = c.p.w
  const problems = problemsOf(e, w)
  if (!problems || (e instanceof AppError && (e.status === 404 || (e.status === 403 && e.code !== 'PLAN_REQUIRED'))))
    return undefined
  const events = (p: { field?: string; message: string }) =>
    p.field?.startsWith('events')
      ? { ...p, message: form.events.size === 0 ? w.webhooks.eventsRequired : p.message }
      : p
  return { ...form, ...refusalOf(problems.map(events)), status: e instanceof AppError ? e.status : 400 }
}

export function webhookPages(kit: PanelEnv): PageRoute[] {
  const hooksOf = (c: PageReq) => listWebhooks({ ctx: c.ctx, input: { limit: 100 } }).data
  const hookOf = (c: PageReq) => getWebhook({ ctx: c.ctx, input: { id: c.params.id! } })
  const overlapHours = Math.round(kit.deps.config.webhookSecretOverlapSec / 360) / 10
  const DONE: Record<string, (w: Words) => string> = {
    saved: (w) => w.common.saved,
    retried: (w) => w.webhooks.retried,
    test: (w) => w.webhooks.testSent,
  }
  const done = (c: PageReq) => DONE[c.query.done ?? '']?.(c.w)
  // A new secret goes POST → redirect → a page that shows it once: a reload shows it no more and
  // neither adds an endpoint nor rotates again.
  const shown = new ShownOnce(() => kit.deps.clock.now())
  const showSecret = (c: PageReq, id: string, secret: string, rotated: boolean) =>
    kit.seeOther(
      c.set,
      `${hookPath(id)}/secret?shown=${shown.put(c.person.session.id, secret)}${rotated ? '&rotated=1' : ''}`,
    )
  const edit = (c: PageReq, status: number, d: HookForm) =>
    kit.render(c.p, c.set, status, (f) => editPage(f, hookOf(c), { ...d, overlapHours, done: done(c) }))

  return [
    {
      method: 'get',
      path: '/admin/webhooks',
      need: 'webhooks:read',
      handler: (c) =>
        kit.render(c.p, c.set, 200, (f) =>
          listPage(f, { hooks: hooksOf(c), url: '', events: new Set(WEBHOOK_EVENTS), errors: {}, done: done(c) }),
        ),
    },
    {
      method: 'post',
      path: '/admin/webhooks',
      need: 'webhooks:write',
      handler: async (c) => {
        // Adding an endpoint sends the store's events out: a recent proof that it is them first (confirm.ts).
        const held = await confirmFirst(kit, c)
        if (held) return held
        const form = readHook(c.body)
        try {
          const created = await createWebhook({
            ctx: c.ctx,
            input: await checkHook(c, WebhookCreate, form),
          })
          return showSecret(c, created.id, created.secret, false)
        } catch (e) {
          const r = refused(c, e, form)
          if (!r) throw e
          return kit.render(c.p, c.set, r.status, (f) => listPage(f, { ...r, hooks: hooksOf(c) }))
        }
      },
    },
    {
      method: 'get',
      path: '/admin/webhooks/:id/secret',
      need: 'webhooks:write',
      owns: 'webhooks',
      handler: (c) =>
        guarded(kit, c, () => {
          const h = hookOf(c)
          const secret = shown.take(c.person.session.id, c.query.shown)
          const rotated = c.query.rotated === '1' ? { overlapHours } : undefined
          return kit.render(c.p, c.set, 200, (f) => secretPage(f, h, secret, rotated))
        }),
    },
    {
      method: 'get',
      path: '/admin/webhooks/:id',
      need: 'webhooks:read',
      owns: 'webhooks',
      handler: (c) =>
        guarded(kit, c, () => {
          const h = hookOf(c)
          const rows = deliveryLog({ ctx: c.ctx, input: { webhookId: h.id, limit: LOG_ROWS } })
          return kit.render(c.p, c.set, 200, (f) => deliveriesPage(f, h, rows, done(c)))
        }),
    },
    {
      // The log's rows alone, for the page's script (assets/webhook-log.ts)
      // to swap in: no reload to see a delivery move on.
      method: 'get',
      path: '/admin/webhooks/:id/log',
      need: 'webhooks:read',
      owns: 'webhooks',
      handler: (c) =>
        guarded(kit, c, async () => {
          const h = hookOf(c)
          const rows = deliveryLog({ ctx: c.ctx, input: { webhookId: h.id, limit: LOG_ROWS } })
          const f = await frameOf(c.p)
          return json(c.set, 200, { html: deliveryItems(f, h, rows).value })
        }),
    },
    {
      method: 'get',
      path: '/admin/webhooks/:id/edit',
      need: 'webhooks:write',
      owns: 'webhooks',
      handler: (c) =>
        guarded(kit, c, () => {
          const h = hookOf(c)
          return edit(c, 200, { url: h.url, events: new Set(h.events), errors: {} })
        }),
    },
    {
      method: 'post',
      path: '/admin/webhooks/:id/edit',
      need: 'webhooks:write',
      owns: 'webhooks',
      handler: (c) =>
        guarded(kit, c, async () => {
          const form = readHook(c.body)
          try {
            await updateWebhook({
              ctx: c.ctx,
              input: { id: c.params.id!, ...(await checkHook(c, WebhookUpdate, form)) },
            })
            return kit.seeOther(c.set, `${hookPath(c.params.id!)}/edit?done=saved`)
          } catch (e) {
            const r = refused(c, e, form)
            if (!r) throw e
            return edit(c, r.status, r)
          }
        }),
    },
    {
      method: 'post',
      path: '/admin/webhooks/:id/active',
      need: 'webhooks:write',
      owns: 'webhooks',
      handler: (c) =>
        guarded(kit, c, async () => {
          await updateWebhook({
            ctx: c.ctx,
            input: { id: c.params.id!, isActive: field(c.body, 'isActive') === '1' },
          })
          return kit.seeOther(c.set, '/admin/webhooks?done=saved')
        }),
    },
    {
      method: 'post',
      path: '/admin/webhooks/:id/rotate',
      need: 'webhooks:write',
      owns: 'webhooks',
      // The secret itself never goes in a URL: the address carries only the id of the held secret.
      handler: (c) =>
        guarded(kit, c, () => {
          const rotated = rotateSecret({ ctx: c.ctx, input: { id: c.params.id! } })
          return showSecret(c, rotated.id, rotated.secret, true)
        }),
    },
    {
      method: 'post',
      path: '/admin/webhooks/:id/test',
      need: 'webhooks:write',
      owns: 'webhooks',
      handler: (c) =>
        guarded(kit, c, () => {
          sendTestEvent({ ctx: c.ctx, input: { id: c.params.id! } })
          return kit.seeOther(c.set, `${hookPath(c.params.id!)}?done=test`)
        }),
    },
    {
      method: 'get',
      path: '/admin/webhooks/:id/delete',
      need: 'webhooks:write',
      owns: 'webhooks',
      handler: (c) => guarded(kit, c, () => kit.render(c.p, c.set, 200, (f) => deletePage(f, hookOf(c)))),
    },
    {
      method: 'post',
      path: '/admin/webhooks/:id/delete',
      need: 'webhooks:write',
      owns: 'webhooks',
      handler: (c) =>
        guarded(kit, c, () => {
          deleteWebhook({ ctx: c.ctx, input: { id: c.params.id! } })
          return kit.seeOther(c.set, '/admin/webhooks?done=saved')
        }),
    },
    {
      method: 'post',
      path: '/admin/webhooks/:id/deliveries/:deliveryId/retry',
      need: 'webhooks:write',
      owns: 'webhooks',
      handler: (c) =>
        guarded(kit, c, () => {
          retryDelivery({ ctx: c.ctx, input: { webhookId: c.params.id!, deliveryId: c.params.deliveryId! } })
          return kit.seeOther(c.set, `${hookPath(c.params.id!)}?done=retried`)
        }),
    },
  ]
}
