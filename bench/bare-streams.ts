/**
 * The yardstick for bench/panel-streams.ts: a bare `Bun.serve` over TLS (BARE_CERT/BARE_KEY)
 * that holds event streams at `GET /admin/orders/live` and, for each `POST /api/orders`,
 * answers 201 with a fresh id and writes one `event: order` block to every open stream — the
 * least a server can do to deliver an order to an inbox, with none of the session, database,
 * batching or rendering. The block has the real stream's shape (`id`, `event`, a JSON `data`
 * with the order's id, its row's HTML and an announcement); the HTML is a fixed string of
 * BARE_ROW_BYTES (default 900, about an inbox row), holding the customer's name so the client
 * times it like a real one. Logs `{"msg":"listening","url":...}` on stderr like the real server.
 */
import { readFileSync } from 'node:fs'

const rowBytes = Number(process.env.BARE_ROW_BYTES ?? 900)
const encoder = new TextEncoder()
const streams = new Set<ReadableStreamDirectController>()
let eventId = 0

function broadcast(orderId: string, name: string): void {
  const cell = `<td>${name}</td>`
  const html = `<tr id="o-${orderId}">${cell}${'x'.repeat(Math.max(0, rowBytes - cell.length - 30))}</tr>`
  const data = JSON.stringify({
    id: orderId,
    created: true,
    status: 'pending',
    isNew: true,
    html,
    announce: `New order from ${name}`,
  })
  const bytes = encoder.encode(`id: ${++eventId}\nevent: order\ndata: ${data}\n\n`)
  for (const s of streams) {
    s.write(bytes)
    void s.flush()
  }
}

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  idleTimeout: 0,
  tls: { cert: readFileSync(process.env.BARE_CERT!, 'utf8'), key: readFileSync(process.env.BARE_KEY!, 'utf8') },
  async fetch(req) {
    const path = new URL(req.url).pathname
    if (req.method === 'GET' && path === '/admin/orders/live') {
      let held: ReadableStreamDirectController | undefined
      const body = new ReadableStream({
        type: 'direct',
        async pull(controller: ReadableStreamDirectController) {
          held = controller
          streams.add(controller)
          controller.write(': open\n\n')
          void controller.flush()
          // Held open until the client goes: the stream ends with the request's signal.
          await new Promise<void>((resolve) => req.signal.addEventListener('abort', () => resolve(), { once: true }))
          streams.delete(controller)
        },
        cancel() {
          if (held) streams.delete(held)
        },
      })
      return new Response(body, {
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' },
      })
    }
    if (req.method === 'POST' && path === '/api/orders') {
      const order = (await req.json()) as { name?: string }
      const id = crypto.randomUUID()
      const res = Response.json({ id }, { status: 201 })
      queueMicrotask(() => broadcast(id, String(order.name ?? '')))
      return res
    }
    return new Response('not found', { status: 404 })
  },
})
process.stderr.write(`${JSON.stringify({ msg: 'listening', url: `https://localhost:${server.port}` })}\n`)
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => (server.stop(true), process.exit(0)))
