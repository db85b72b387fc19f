/**
 * The yardstick for bench/catalog.ts: a bare Bun.serve over TLS answering every request with
 * the bytes in BARE_BODY (fetched once from the real server), with BARE_CERT/BARE_KEY, and
 * BARE_STATUS (default 200).
 * Logs `{"msg":"listening","url":...}` on stderr like the real server.
 */
import { readFileSync } from 'node:fs'

// A Blob, the cheapest body Bun has: each Response shares its bytes instead of copying them
// (the storefront's cache serves Blobs too, so neither side gets an edge from this).
const body = new Blob([readFileSync(process.env.BARE_BODY!)])
const contentType = process.env.BARE_CONTENT_TYPE ?? 'application/json'
const status = Number(process.env.BARE_STATUS ?? 200)
// BARE_READ_JSON=1 (bench/orders.ts's HTTP floor): each request's body is read and parsed as JSON first.
const fetch =
  process.env.BARE_READ_JSON === '1'
    ? async (req: Request) => {
        await req.json()
        return new Response(body, { status, headers: { 'content-type': contentType } })
      }
    : () => new Response(body, { status, headers: { 'content-type': contentType } })
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  tls: { cert: readFileSync(process.env.BARE_CERT!, 'utf8'), key: readFileSync(process.env.BARE_KEY!, 'utf8') },
  fetch,
})
process.stderr.write(`${JSON.stringify({ msg: 'listening', url: `https://localhost:${server.port}` })}\n`)
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => (server.stop(true), process.exit(0)))
