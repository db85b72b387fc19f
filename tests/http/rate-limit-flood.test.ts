/**
 * Per-IP limits under a flood of distinct clients: IPv6 clients share a bucket per /64,
 * `::ffff:a.b.c.d` is `a.b.c.d`, every client's window is written to the rate_limits table, and
 * once the windows end neither memory nor the table holds any of them. How long the flood may
 * block the event loop (never 20 ms) is a timing figure: the resilience step measures it
 * (tests/resilience/flood.test.ts, `bun run resilience --only flood`).
 */
import { describe, expect, test } from 'bun:test'
import { ipBucket } from '../../src/lib/client-ip'
import { runFlood } from '../helpers/flood'
import { appForFile } from '../helpers/app'

const t = appForFile({ trustProxy: true })

const hit = (ip: string) =>
  t.app.handle(
    new Request('http://localhost/api/nothing', { headers: { 'x-forwarded-for': ip, 'x-forwarded-proto': 'https' } }),
  )

describe('buckets', () => {
  test('ipBucket: IPv6 by /64, IPv4-mapped as IPv4', () => {
    expect(ipBucket('2001:db8:1:2::1')).toBe(ipBucket('2001:db8:1:2:ffff:ffff:ffff:ffff'))
    expect(ipBucket('2001:db8:1:2::1')).not.toBe(ipBucket('2001:db8:1:3::1'))
    expect(ipBucket('::ffff:198.51.100.7')).toBe('198.51.100.7')
    expect(ipBucket('::FFFF:c633:6407')).toBe('198.51.100.7')
    expect(ipBucket('198.51.100.7')).toBe('198.51.100.7')
  })

  test('three addresses of one /64 share one bucket over HTTP; ::ffff: shares the IPv4 one', async () => {
    const remaining = async (ip: string) => Number((await hit(ip)).headers.get('x-ratelimit-remaining'))
    const a = await remaining('2001:db8:aa:1::1')
    expect(await remaining('2001:db8:aa:1::2')).toBe(a - 1)
    expect(await remaining('2001:db8:aa:1:dead:beef:0:3')).toBe(a - 2)
    expect(await remaining('2001:db8:aa:2::1')).toBe(a)
    const v4 = await remaining('198.51.100.77')
    expect(await remaining('::ffff:198.51.100.77')).toBe(v4 - 1)
  })
})

describe('a flood of 20,000 distinct clients', () => {
  test('one row per client while their windows last; none in memory or on disk after they end', async () => {
    const f = await runFlood(20_000)
    expect(f.rowsAtPeak).toBeGreaterThanOrEqual(20_000)
    expect(f.rowsAfter).toBe(0)
    expect(f.clientsAfter).toBe(0)
  }, 120_000)
})
