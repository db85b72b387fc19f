/**
 * The yardstick for bench/catalog.ts: a bare Bun.serve over TLS answering every request with
 * the bytes in BARE_BODY (fetched once from the real server), with BARE_CERT/BARE_KEY.
 * Logs `{"msg":"listening","url":...}` on stderr like the real server.
 */
import { readFileSync } from 'node:fs'

// A Blob, the cheapest body Bun has: each Response shares its bytes instead of copying them
// (the storefront's cache serves Blobs too, so neither side gets an edge from this).
const body = new Blob([readFileSync(process.env.BARE_BODY!)])
const contentType = process.env.BARE_CONTENT_TYPE ?? 'application/json'
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  tls: { cert: readFileSync(process.env.BARE_CERT!, 'utf8'), key: readFileSync(process.env.BARE_KEY!, 'utf8') },
  fetch: () => new Response(body, { headers: { 'content-type': contentType } }),
})
process.stderr.write(`${JSON.stringify({ msg: 'listening', url: `https://localhost:${server.port}` })}\n`)
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => (server.stop(true), process.exit(0)))
