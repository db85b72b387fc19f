/**
 * Standard Webhooks signing: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, the key
 * being the base64 part of `whsec_…`. node:crypto rather than the package's pure-JS HMAC for
 * speed; tests/webhooks/unit.test.ts pins byte-equality with `standardwebhooks`.
 */
import { createHmac, randomBytes } from 'node:crypto'

export const SECRET_PREFIX = 'whsec_'

/** `whsec_` + base64 of 24 random bytes (192 bits). */
export const newSecret = () => SECRET_PREFIX + randomBytes(24).toString('base64')

/** Decoded keys by secret: a dispatcher signs every send with one of a few secrets. */
const keys = new Map<string, Buffer>()
function keyOf(secret: string): Buffer {
  let key = keys.get(secret)
  if (!key) {
    key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64')
    if (keys.size >= 1000) keys.clear()
    keys.set(secret, key)
  }
  return key
}

export function sign(secret: string, msgId: string, timestampSec: number, body: string): string {
  const key = keyOf(secret)
  return `v1,${createHmac('sha256', key).update(`${msgId}.${timestampSec}.${body}`).digest('base64')}`
}

/** The `webhook-signature` value: one `v1,` entry per live secret, space-separated. */
export const signatureHeader = (secrets: string[], msgId: string, timestampSec: number, body: string) =>
  secrets.map((s) => sign(s, msgId, timestampSec, body)).join(' ')
