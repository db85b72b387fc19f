/**
 * Preloaded for every test file (bunfig.toml): fetch may reach loopback only. Tests register
 * webhooks with public addresses to prove the SSRF guard lets them through; this makes sure no
 * test run ever sends a byte to such an address, whatever the dispatcher does with them.
 */
const realFetch = globalThis.fetch

function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h.startsWith('::ffff:127.')
}

function target(input: string | URL | Request): URL {
  return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
}

const guarded = ((input: string | URL | Request, init?: RequestInit) => {
  const url = target(input)
  if (!isLoopback(url.hostname))
    return Promise.reject(new TypeError(`test network guard: refusing a request to ${url.origin}`))
  return realFetch(input, init)
}) as typeof fetch
globalThis.fetch = Object.assign(guarded, realFetch)
