/**
 * One attempt at a claimed delivery: the SSRF check (whose address the send connects to), the
 * signature with the endpoint's secret (and the previous one while it overlaps), the POST; and
 * the log line it leaves. Never throws.
 */
import type { Logger } from '../../lib/log'
import { checkWebhookUrl } from '../../lib/ssrf'
import type { DispatcherDeps } from './dispatcher-deps'
import type { Outcome } from './scheduling'
import { send, type SendResult } from './sender'
import { signatureHeader } from './signing'
import type { Claim } from './store'

export const outcomeOf = (r: SendResult): Outcome =>
  r.kind === 'ok' || r.code !== null ? 'answered' : r.timedOut ? 'timeout' : 'other'

/**
 * One line per attempt: which endpoint, which delivery, the receiver's status (null when none
 * answered) and how long it took. Never the payload, the URL (a receiver's URL may carry a token)
 * or the receiver's answer: a failure without a status is named by its kind only.
 */
export function logAttempt(log: Logger, c: Claim, r: SendResult): void {
  if (log.enabled?.('info') === false) return
  const failure =
    r.kind === 'ok' || r.code !== null
      ? undefined
      : r.timedOut
        ? 'timeout'
        : (/^[A-Za-z_ ]{1,32}(?=:)/.exec(r.error)?.[0] ?? 'error')
  log.info('webhook attempt', {
    webhookId: c.webhookId,
    deliveryId: c.id,
    storeId: c.webhook.storeId,
    status: r.code,
    ok: r.kind === 'ok',
    ms: r.latencyMs,
    ...(failure ? { failure } : {}),
  })
}

export class Attempt {
  /** Decrypted secrets by ciphertext (a rotation writes a new ciphertext, so entries never go stale). */
  private opened = new Map<string, string>()

  constructor(private deps: Pick<DispatcherDeps, 'config' | 'clock' | 'secretBox' | 'lookup' | 'ca'>) {}

  private open(sealed: string, webhookId: string): string {
    const key = `${webhookId} ${sealed}` // the row id stays part of the check, as in the AAD
    let plain = this.opened.get(key)
    if (plain === undefined) {
      plain = this.deps.secretBox.open(sealed, webhookId)
      if (this.opened.size >= 1000) this.opened.clear()
      this.opened.set(key, plain)
    }
    return plain
  }

  async run(c: Claim, signal: AbortSignal): Promise<SendResult> {
    const { config, clock } = this.deps
    const check = await checkWebhookUrl(c.webhook.url, {
      allowPrivate: config.webhookAllowPrivate,
      lookup: this.deps.lookup,
      resolve: true,
    })
    if (!check.ok) return { kind: 'fail', code: null, latencyMs: null, error: `refused: ${check.message}` }
    const now = clock.now()
    const secrets = [this.open(c.webhook.secret, c.webhook.id)]
    if (c.webhook.previousSecret && (c.webhook.previousSecretExpiresAt ?? 0) > now)
      secrets.push(this.open(c.webhook.previousSecret, c.webhook.id))
    const ts = Math.floor(now / 1000)
    return send(
      {
        url: check.url,
        addresses: check.addresses,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Storefront-Webhooks/1.0',
          'webhook-id': c.id,
          'webhook-timestamp': String(ts),
          'webhook-signature': signatureHeader(secrets, c.id, ts, c.payload),
        },
        body: c.payload,
        timeoutMs: config.webhookTimeoutMs,
        signal,
        ca: this.deps.ca,
      },
      () => clock.now(),
    )
  }
}
