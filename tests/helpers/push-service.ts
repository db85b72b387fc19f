/**
 * A fake push service on loopback (what a browser's vendor runs: FCM, Mozilla's autopush…) and
 * the browser's side of a subscription: its own P-256 key pair and auth secret, so a test can
 * decrypt what the service was sent (RFC 8291 `aes128gcm`, with `http_ece`) back to the payload.
 */
import { createECDH, randomBytes, type ECDH } from 'node:crypto'
import ece from 'http_ece'
import { waitFor } from './wait'

export interface PushRequest {
  path: string
  headers: Record<string, string>
  body: Buffer
}

export interface FakePushService {
  url: string
  received: PushRequest[]
  /** Per request; `n` counts requests to that path so far (1-based). Return a Promise to hang. */
  respond: (r: PushRequest, n: number) => Response | Promise<Response>
  waitForCount(n: number, timeoutMs?: number): Promise<void>
  stop(): void
}

export function startPushService(): FakePushService {
  const received: PushRequest[] = []
  const perPath = new Map<string, number>()
  const service: FakePushService = {
    url: '',
    received,
    respond: () => new Response(null, { status: 201 }),
    waitForCount: (n, timeoutMs = 10_000) => waitFor(`${n} push requests`, () => received.length >= n, timeoutMs),
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      const r = { path, headers: Object.fromEntries(req.headers), body: Buffer.from(await req.arrayBuffer()) }
      received.push(r)
      const n = (perPath.get(path) ?? 0) + 1
      perPath.set(path, n)
      return service.respond(r, n)
    },
  })
  service.url = `http://127.0.0.1:${server.port}`
  return service
}

/** A browser's subscription to `endpoint`: what it posts, and the private half it keeps. */
export interface BrowserSubscription {
  json: { endpoint: string; keys: { p256dh: string; auth: string } }
  ecdh: ECDH
  auth: Buffer
}

export function browserSubscription(endpoint: string): BrowserSubscription {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const auth = randomBytes(16)
  return {
    json: {
      endpoint,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
    ecdh,
    auth,
  }
}

/** The push's plaintext, as the browser would decrypt it. */
export function decryptPush(r: PushRequest, sub: BrowserSubscription): unknown {
  const plain = ece.decrypt(r.body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth })
  return JSON.parse(plain.toString('utf8'))
}
