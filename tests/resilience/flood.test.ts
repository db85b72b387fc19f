/**
 * 100,000 distinct IPv6 clients (tests/resilience/flood.ts, in its own process): the event loop is
 * never blocked 20 ms or more while flooding, flushing and sweeping, and memory and the
 * rate_limits table return once the windows end. A timing figure, so it runs in the resilience
 * step (`bun run test:resilience`), not in `bun test`.
 */
import { test } from 'bun:test'
import { expectClean } from './expect'
import { runIpv6Flood } from './flood'

test('a flood of 100,000 distinct clients never blocks the loop ≥ 20 ms; memory and rows return', async () => {
  const r = await runIpv6Flood({ clients: 100_000 })
  expectClean(r)
  console.log(`flood: ${r.notes.join('; ')}`)
}, 240_000)
