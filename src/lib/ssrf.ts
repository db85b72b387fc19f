/**
 * SSRF guard for webhook URLs: a receiver must be a public https address, so a store can't
 * make the service call its own loopback, the cloud metadata endpoint (169.254.169.254) or the
 * operator's private network. Checked at registration and again before every send (DNS can
 * change between the two); the send then connects to the very address this check passed
 * (webhooks/sender.ts), so a name that resolves differently a moment later (DNS rebinding)
 * gains nothing. `WEBHOOK_ALLOW_PRIVATE=1` turns the guard off and allows plain http (local
 * development, tests against a loopback receiver).
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'

export type Lookup = (host: string) => Promise<string[]>

export const systemLookup: Lookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address)

export type UrlCheck =
  | { ok: true; url: URL; addresses: string[] }
  | { ok: false; reason: 'invalid_format' | 'private_address' | 'not_found'; message: string }

// ---------- IPv4 ----------

function v4ToInt(ip: string): number | undefined {
  const parts = ip.split('.')
  if (parts.length !== 4) return undefined
  let n = 0
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined
    n = n * 256 + Number(p)
  }
  return n
}

const V4_BLOCKED: [string, number, string][] = [
  ['0.0.0.0', 8, 'this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'ietf-protocol'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4-relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes 255.255.255.255 broadcast
]
const V4_RANGES = V4_BLOCKED.map(([base, bits, kind]) => ({
  base: v4ToInt(base)!,
  mask: bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0,
  kind,
}))

function classifyV4Int(n: number): string | null {
  for (const r of V4_RANGES) if ((n & r.mask) >>> 0 === r.base) return r.kind
  return null
}

// ---------- IPv6 ----------

/** Eight 16-bit groups, or undefined. Accepts `::` compression, a dotted IPv4 tail and a zone. */
export function parseV6(ip: string): number[] | undefined {
  let s = ip.replace(/^\[|\]$/g, '')
  const zone = s.indexOf('%')
  if (zone !== -1) s = s.slice(0, zone)
  const lastColon = s.lastIndexOf(':')
  if (s.includes('.', lastColon)) {
    // A dotted IPv4 tail (`::ffff:127.0.0.1`) becomes its two hex groups.
    const v4 = v4ToInt(s.slice(lastColon + 1))
    if (v4 === undefined || lastColon === -1) return undefined
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const halves = s.split('::')
  if (halves.length > 2) return undefined
  const toGroups = (h: string) => (h === '' ? [] : h.split(':'))
  const head = toGroups(halves[0]!)
  const rest = halves.length === 2 ? toGroups(halves[1]!) : []
  const all = [...head, ...rest]
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined
  const given = all.length
  if (halves.length === 1 && given !== 8) return undefined
  if (halves.length === 2 && given > 7) return undefined
  const zeros = halves.length === 2 ? 8 - given : 0
  return [...head.map((g) => parseInt(g, 16)), ...Array(zeros).fill(0), ...rest.map((g) => parseInt(g, 16))]
}

function classifyV6(g: number[]): string | null {
  const embeddedV4 = ((g[6]! << 16) >>> 0) + g[7]!
  const zeroUntil = (i: number) => g.slice(0, i).every((x) => x === 0)
  if (zeroUntil(8)) return 'unspecified'
  if (zeroUntil(7) && g[7] === 1) return 'loopback'
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), ::ffff:0:a.b.c.d (SIIT): all reach IPv4
  // through the host's stack, so they are refused outright whatever the embedded address.
  if (zeroUntil(5) && g[5] === 0xffff) return 'ipv4-mapped'
  if (zeroUntil(6)) return 'ipv4-compatible'
  if (zeroUntil(4) && g[4] === 0xffff && g[5] === 0) return 'ipv4-translated'
  // NAT64 well-known prefix 64:ff9b::/96: as public as the IPv4 address it carries.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    const kind = classifyV4Int(embeddedV4)
    return kind ? `nat64-${kind}` : null
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'nat64-local'
  const first = g[0]!
  if ((first & 0xffc0) === 0xfe80) return 'link-local'
  if ((first & 0xffc0) === 0xfec0) return 'site-local'
  if ((first & 0xfe00) === 0xfc00) return 'unique-local'
  if ((first & 0xff00) === 0xff00) return 'multicast'
  if (first === 0x2001 && g[1] === 0x0db8) return 'documentation'
  if (first === 0x2001 && g[1]! < 0x200) return 'ietf-special' // Teredo 2001::/32, ORCHID, benchmarking…
  if (first === 0x2002) {
    // 6to4 carries an IPv4 address in bits 16–47.
    const kind = classifyV4Int(((g[1]! << 16) >>> 0) + g[2]!)
    return kind ? `6to4-${kind}` : null
  }
  if ((first & 0xe000) !== 0x2000) return 'not-global-unicast' // only 2000::/3 is routable
  return null
}

/** Why an IP literal is not a public address (`'loopback'`, `'private'`, …), or null when it is. */
export function classifyIp(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, '')
  const family = isIP(bare.split('%')[0]!)
  if (family === 4) return classifyV4Int(v4ToInt(bare)!)
  if (family === 6) {
    const g = parseV6(bare)
    return g ? classifyV6(g) : 'invalid'
  }
  return 'invalid'
}

const LOCAL_NAMES = /(^|\.)(localhost|localdomain|local|internal|home\.arpa)\.?$/i

/** Appended to every refusal of a private address: how an operator testing locally gets past it. */
export const ALLOW_PRIVATE_HINT =
  'private addresses are accepted only when the server runs with WEBHOOK_ALLOW_PRIVATE=1 (local testing)'

/**
 * Parses and checks a webhook URL. WHATWG URL parsing normalizes odd IPv4 spellings
 * (`2130706433`, `0x7f.1`, `127.1`) to dotted form first, so they are classified as what they are.
 * A private address is reported before a plain-http scheme: the hint then names the one setting
 * that allows both. `resolve`: also resolve the name when private addresses are allowed (the
 * sender connects to one of `addresses`, never to the name).
 */
export async function checkWebhookUrl(
  raw: string,
  opts: { allowPrivate: boolean; lookup?: Lookup; resolve?: boolean },
): Promise<UrlCheck> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, reason: 'invalid_format', message: 'url must be an absolute https URL' }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: 'invalid_format', message: 'url must use https' }
  if (url.username || url.password)
    return { ok: false, reason: 'invalid_format', message: 'url must not carry credentials' }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!host) return { ok: false, reason: 'invalid_format', message: 'url must name a host' }
  const resolve = async (): Promise<UrlCheck> => {
    let addresses: string[]
    try {
      addresses = await (opts.lookup ?? systemLookup)(host)
    } catch {
      addresses = []
    }
    if (addresses.length === 0)
      return { ok: false, reason: 'not_found', message: `url host '${host}' does not resolve` }
    return { ok: true, url, addresses }
  }
  if (opts.allowPrivate) {
    if (isIP(host)) return { ok: true, url, addresses: [host] }
    return opts.resolve ? resolve() : { ok: true, url, addresses: [] }
  }
  const refused = (what: string): UrlCheck => ({
    ok: false,
    reason: 'private_address',
    message: `url resolves to a non-public address (${what}); ${ALLOW_PRIVATE_HINT}`,
  })
  const plainHttp: UrlCheck = {
    ok: false,
    reason: 'invalid_format',
    message:
      'url must use https (plain http is accepted only when the server runs with ' +
      'WEBHOOK_ALLOW_PRIVATE=1, for local testing)',
  }
  if (isIP(host)) {
    const kind = classifyIp(host)
    if (kind) return refused(kind)
    return url.protocol === 'http:' ? plainHttp : { ok: true, url, addresses: [host] }
  }
  if (LOCAL_NAMES.test(host) || !host.includes('.')) return refused('local name')
  if (url.protocol === 'http:') return plainHttp
  const resolved = await resolve()
  if (!resolved.ok) return resolved
  // Every address must be public: the client may connect to any of them.
  for (const a of resolved.addresses) {
    const kind = classifyIp(a)
    if (kind) return refused(kind)
  }
  return resolved
}
