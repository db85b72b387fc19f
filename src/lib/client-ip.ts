/**
 * The client IP used for per-IP limits. Behind a TLS-terminating proxy (TRUST_PROXY=1) it is the
 * rightmost X-Forwarded-For entry — the one our proxy appended, which a client cannot forge.
 * Otherwise forwarding headers are ignored and the socket address is used.
 */
interface IpServer {
  requestIP(req: Request): { address: string } | null
}

export function clientIp(request: Request, server: IpServer | null | undefined, trustProxy: boolean): string {
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
