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
/** The /mcp route's tool calls among them (an order they place is the assistant's, not the storefront's). */
export const assistantRequests = new WeakSet<Request>()

export function clientIp(request: Request, server: IpServer | null | undefined, trustProxy: boolean): string {
  const inherited = subRequestIps.get(request)
  if (inherited !== undefined) return inherited
  return peerIp(request, server, trustProxy)
}

/** clientIp for a request known to come from the network (not an in-process sub-request). */
export function peerIp(request: Request, server: IpServer | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const xff = request.headers.get('x-forwarded-for')
    if (xff) {
      const parts = xff.split(',')
      const last = stripPort(parts[parts.length - 1]!.trim())
      if (last) return last
    }
  }
  return server?.requestIP(request)?.address ?? 'unknown'
}

/**
 * Some proxies append `ip:port` or `[v6]:port`; the port must not make each source port its own
 * rate-limit bucket. A bare IPv6 address (several colons, no brackets) is left as it is.
 */
export function stripPort(entry: string): string {
  if (entry.startsWith('[')) {
    const end = entry.indexOf(']')
    return end > 0 ? entry.slice(1, end) : entry
  }
  const colon = entry.indexOf(':')
  if (colon > 0 && colon === entry.lastIndexOf(':') && entry.slice(0, colon).includes('.')) return entry.slice(0, colon)
  return entry
}

/**
 * The per-IP rate-limit bucket of an address: IPv4 as is, `::ffff:a.b.c.d` as `a.b.c.d`, and any
 * other IPv6 address by its /64 — one subscriber usually holds a whole /64, so counting each
 * address would hand a client 2^64 fresh buckets. Anything unparsable is its own bucket.
 */
export function ipBucket(ip: string): string {
  if (!ip.includes(':')) return ip
  const addr = ip.split('%')[0]!.toLowerCase()
  const halves = addr.split('::')
  if (halves.length > 2) return ip
  const groups = (s: string) => (s === '' ? [] : s.split(':'))
  const head = groups(halves[0]!)
  const tail = halves.length === 2 ? groups(halves[1]!) : []
  // A dotted IPv4 tail stands for two groups.
  const last = tail.length ? tail[tail.length - 1]! : head[head.length - 1]!
  const v4 = last?.includes('.') ? last : undefined
  const count = head.length + tail.length + (v4 ? 1 : 0)
  if (count > 8 || (halves.length === 1 && count !== 8)) return ip
  const all = [...head, ...Array<string>(8 - count).fill('0'), ...tail].map((g) =>
    g.includes('.') ? g : parseInt(g || '0', 16),
  )
  if (all.slice(0, 6).some((g) => typeof g === 'number' && (Number.isNaN(g) || g > 0xffff))) return ip
  const isMapped = all.slice(0, 5).every((g) => g === 0) && all[5] === 0xffff
  if (isMapped) {
    if (v4) return v4
    const [hi, lo] = [all[6] as number, all[7] as number]
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  }
  return `${all
    .slice(0, 4)
    .map((g) => (g as number).toString(16))
    .join(':')}::/64`
}
