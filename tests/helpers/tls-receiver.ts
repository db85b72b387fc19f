/**
 * A loopback https receiver whose certificate names `name` only (no IP in it): a client reaches
 * it only if it sends that name as SNI and verifies against it. `ca` is the PEM to trust.
 * Records the Host header, body and headers of every request.
 */
import selfsigned from 'selfsigned'

export interface TlsReceiver {
  port: number
  ca: string
  hits: { host: string | null; body: string; headers: Record<string, string> }[]
  stop(): void
}

export async function startTlsReceiver(name: string): Promise<TlsReceiver> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: name }] }],
  } as never)
  const hits: TlsReceiver['hits'] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    tls: { cert: pems.cert, key: pems.private },
    async fetch(req) {
      hits.push({
        host: req.headers.get('host'),
        body: await req.text(),
        headers: Object.fromEntries(req.headers.entries()),
      })
      return new Response(null, { status: 204 })
    },
  })
  return { port: server.port!, ca: pems.cert, hits, stop: () => server.stop(true) }
}
