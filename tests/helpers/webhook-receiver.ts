/**
 * A loopback webhook receiver for tests: records every request and answers with what the test
 * says (`respond`), by default 204. `waitFor` polls its log instead of sleeping a fixed time.
 */
import { Webhook } from 'standardwebhooks'

export interface Received {
  id: string
  timestamp: string
  signature: string
  body: string
  headers: Record<string, string>
  at: number
}

export interface Receiver {
  url: string
  port: number
  received: Received[]
  /** Per-request answer; `n` counts requests so far (1-based). Return a Promise to delay. */
  respond: (r: Received, n: number) => Response | Promise<Response>
  /** Distinct webhook-ids seen, with how many requests each. */
  counts(): Map<string, number>
  waitFor(pred: () => boolean, timeoutMs?: number): Promise<void>
  stop(): void
}

export function startReceiver(opts: { port?: number; path?: string } = {}): Receiver {
  const received: Received[] = []
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    respond: () => new Response(null, { status: 204 }),
    counts() {
      const m = new Map<string, number>()
      for (const r of received) m.set(r.id, (m.get(r.id) ?? 0) + 1)
      return m
    },
    async waitFor(pred, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs
      while (!pred()) {
        if (Date.now() > until)
          throw new Error(`receiver: condition not met in ${timeoutMs} ms (${received.length} requests received)`)
        await Bun.sleep(5)
      }
    },
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    port: opts.port ?? 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const body = await req.text()
      const headers = Object.fromEntries(req.headers.entries())
      const r: Received = {
        id: headers['webhook-id'] ?? '',
        timestamp: headers['webhook-timestamp'] ?? '',
        signature: headers['webhook-signature'] ?? '',
        body,
        headers,
        at: Date.now(),
      }
      received.push(r)
      return receiver.respond(r, received.length)
    },
  })
  receiver.port = server.port!
  receiver.url = `http://127.0.0.1:${server.port}${opts.path ?? '/hook'}`
  return receiver
}

/** Verifies one received request with the `standardwebhooks` package; returns the parsed payload or throws. */
export function verify(secret: string, r: Received): unknown {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': r.id,
    'webhook-timestamp': r.timestamp,
    'webhook-signature': r.signature,
  })
}
