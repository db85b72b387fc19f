/**
 * Per-IP limits under a flood of distinct clients (contract "Browsers and the public edge"):
 * IPv6 clients share a bucket per /64, `::ffff:a.b.c.d` is `a.b.c.d`, and 100,000 distinct
 * clients never block the event loop for more than 20 ms (flushes and sweeps run in slices);
 * once their windows end, memory and the rate_limits table return to where they were.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { ipBucket } from '../src/lib/client-ip'
import type { FloodFigures } from './helpers/flood'
import { makeApp, type TestApp } from './helpers/app'

let t: TestApp
beforeAll(() => {
  t = makeApp({ trustProxy: true })
})
afterAll(() => t.close())

const hit = (ip: string) =>
  t.app.handle(new Request('http://localhost/api/nothing', { headers: { 'x-forwarded-for': ip, 'x-forwarded-proto': 'https' } }))

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

describe('a flood of 100,000 distinct clients', () => {
  test(
    'never blocks the loop > 20 ms; memory and rows return after the windows end',
    async () => {
      // Its own process: this one's heap (every test file's) would add its GC pauses.
      const proc = Bun.spawn(['bun', path.join(import.meta.dir, 'helpers/flood.ts'), '100000'], { stdout: 'pipe', stderr: 'inherit' })
      const out = await new Response(proc.stdout).text()
      expect(await proc.exited).toBe(0)
      const f = JSON.parse(out.trim().split('\n').at(-1)!) as FloodFigures
      console.log(
        `flood: ${f.clients} clients, loop blocked at most ${f.floodBlockMs.toFixed(1)} ms (wall gap ${f.floodWallMs.toFixed(1)}) flooding+flushing, ${f.sweepBlockMs.toFixed(1)} ms (wall ${f.sweepWallMs.toFixed(1)}) sweeping; heap ${f.heapBaseMiB.toFixed(1)} → ${f.heapPeakMiB.toFixed(1)} → ${f.heapAfterMiB.toFixed(1)} MiB; rows ${f.rowsAtPeak} → ${f.rowsAfter}`,
      )
      expect(f.rowsAtPeak).toBeGreaterThanOrEqual(f.clients)
      expect(f.floodBlockMs).toBeLessThan(20)
      expect(f.sweepBlockMs).toBeLessThan(20)
      expect(f.rowsAfter).toBe(0)
      expect(f.clientsAfter).toBe(0)
      // What the flood added is gone (allowing some noise from the allocator).
      expect(f.heapAfterMiB - f.heapBaseMiB).toBeLessThan((f.heapPeakMiB - f.heapBaseMiB) * 0.25)
    },
    { timeout: 120_000 },
  )
})
