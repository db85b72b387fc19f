/**
 * One push to one device: the endpoint checked against the SSRF rules again (DNS may have
 * changed since it was saved), the payload encrypted for the browser (RFC 8291 `aes128gcm`)
 * and signed for the push service (VAPID, RFC 8292) by the `web-push` library, then one POST
 * to the address the check passed, through the webhooks' sender.
 */
import webpush from 'web-push'
import { checkWebhookUrl, type Lookup } from '../../lib/ssrf'
import { send, type SendResult } from '../webhooks'
import { PUSH_TTL_SECONDS } from './outbox'
import type { VapidKeys } from './vapid'

export interface PushTarget {
  endpoint: string
  p256dh: string
  /** The auth secret, opened. */
  auth: string
}

export interface DeliverOptions {
  vapid: VapidKeys
  subject: string
  allowPrivate: boolean
  timeoutMs: number
  signal: AbortSignal
  now: () => number
  lookup?: Lookup
}

/** A VAPID token is good for up to a day; one is made per push service and subject for 12 h. */
const TOKEN_SECONDS = 12 * 3600
const tokens = new Map<string, { authorization: string; until: number }>()

/**
 * The VAPID `Authorization` for a push service, reused while it has an hour left: signing a
 * token (ES256) cost several times the payload's encryption, once per push. Real time, not the
 * service's clock: the push service checks the token's expiry against its own.
 */
function vapidAuthorization(audience: string, subject: string, vapid: VapidKeys): string {
  const key = `${audience} ${subject} ${vapid.publicKey}`
  const nowSec = Math.floor(Date.now() / 1000)
  const known = tokens.get(key)
  if (known && known.until - nowSec > 3600) return known.authorization
  const until = nowSec + TOKEN_SECONDS
  const { Authorization } = webpush.getVapidHeaders(
    audience,
    subject,
    vapid.publicKey,
    vapid.privateKey,
    'aes128gcm',
    until,
  ) as { Authorization: string }
  if (tokens.size > 1000) tokens.clear()
  tokens.set(key, { authorization: Authorization, until })
  return Authorization
}

export async function deliver(target: PushTarget, payload: string, o: DeliverOptions): Promise<SendResult> {
  const check = await checkWebhookUrl(target.endpoint, {
    allowPrivate: o.allowPrivate,
    lookup: o.lookup,
    resolve: true,
  })
  if (!check.ok) return { kind: 'fail', code: 400, latencyMs: null, error: `endpoint refused: ${check.message}` }
  const details = webpush.generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    payload,
    {
      TTL: PUSH_TTL_SECONDS,
      urgency: 'high',
      // No vapidDetails: the token is added here (cached), so the library signs none of its own.
      headers: { Authorization: vapidAuthorization(check.url.origin, o.subject, o.vapid) },
    },
  )
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(details.headers)) headers[k.toLowerCase()] = String(v)
  return send(
    {
      url: check.url,
      addresses: check.addresses,
      headers,
      body: details.body ?? new Uint8Array(),
      timeoutMs: o.timeoutMs,
      signal: o.signal,
    },
    o.now,
  )
}
