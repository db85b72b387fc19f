/**
 * The client IP used for per-IP limits. Behind a TLS-terminating proxy (TRUST_PROXY=1) it is the
 * rightmost X-Forwarded-For entry — the one our proxy appended, which a client cannot forge.
 * Otherwise forwarding headers are ignored and the socket address is used.
 */
interface IpServer {
  requestIP(req: Request): { address: string } | null
}

/** In-process sub-requests (the /mcp route's tool calls) carry the IP of the request that made them. */
export const subRequestIps = new WeakMap<Request, string>()

export function clientIp(request: Request, server: IpServer | null | undefined, trustProxy: boolean): string {
  const inherited = subRequestIps.get(request)
  if (inherited !== undefined) return inherited
  if (trustProxy) {
    const xff = request.headers.get('x-forwarded-for')
    if (xff) {
      const parts = xff.split(',')
      const last = parts[parts.length - 1]!.trim()
      if (last) return last
    }
  }
  return server?.requestIP(request)?.address ?? 'unknown'
}
