/**
 * Per-IP limits under a flood of distinct clients (contract "Browsers and the public edge"):
 * IPv6 clients share a bucket per /64, `::ffff:a.b.c.d` is `a.b.c.d`, and 100,000 distinct
 * clients never block the event loop for more than 20 ms (flushes and sweeps run in slices);
 * once their windows end, memory and the rate_limits table return to where they were.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ipBucket } from '../src/lib/client-ip'
import type { Clock } from '../src/lib/time'
import { makeApp, type TestApp } from './helpers/app'

let t: TestApp
let shift = 0
const clock: Clock = { now: () => Date.now() + shift }

beforeAll(() => {
  t = makeApp({ trustProxy: true, rateLimitFlushMs: 200 }, { clock })
})
afterAll(() => t.close())

const hit = (ip: string) =>
  t.app.handle(new Request('http://localhost/api/nothing', { headers: { 'x-forwarded-for': ip, 'x-forwarded-proto': 'https' } }))

/**
 * The longest the event loop was blocked while `fn` runs: the gap between 1 ms ticks, counted only
 * as far as this process used CPU in it (the machine is shared: a gap spent descheduled is not
 * ours). Returns [result, worst blocked ms, worst wall-clock gap ms].
 */
async function maxLoopBlock<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  let last = performance.now()
  let lastCpu = process.cpuUsage()
  let worst = 0
  let worstWall = 0
  const timer = setInterval(() => {
    const now = performance.now()
    const cpu = process.cpuUsage(lastCpu)
    const gap = now - last
    worstWall = Math.max(worstWall, gap)
    worst = Math.max(worst, Math.min(gap, (cpu.user + cpu.system) / 1000))
    last = now
    lastCpu = process.cpuUsage()
  }, 1)
  try {
    const out = await fn()
    return [out, worst, worstWall]
  } finally {
    clearInterval(timer)
  }
}

const rows = () => (t.deps.db.$client.query('SELECT count(*) AS n FROM rate_limits').get() as { n: number }).n
const heap = () => {
  Bun.gc(true)
  return process.memoryUsage().heapUsed
}

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
      await t.deps.limiter.flushSliced()
      const baseRows = rows()
      const baseHeap = heap()
      const N = 100_000
      const [, floodBlock, floodWall] = await maxLoopBlock(async () => {
        for (let i = 0; i < N; i += 25) {
          const batch: Promise<Response>[] = []
          for (let j = i; j < i + 25; j++) batch.push(hit(`2001:db8:${(j >> 16).toString(16)}:${(j & 0xffff).toString(16)}::1`))
          await Promise.all(batch)
          // Requests arrive over the network: the loop gets a turn between them.
          await new Promise((r) => setImmediate(r))
        }
        // Let the timer's sliced flush write all of them.
        while (t.deps.limiter.pending > 0) await Bun.sleep(50)
      })
      expect(t.deps.limiter.size).toBeGreaterThanOrEqual(N)
      expect(rows()).toBeGreaterThanOrEqual(baseRows + N)
      const peakHeap = heap()

      // The windows (1 minute) end: the next sweep drops them from memory and disk.
      shift += 61_000
      const [, sweepBlock, sweepWall] = await maxLoopBlock(async () => {
        while (t.deps.limiter.size > 0 || t.deps.limiter.pending > 0) await Bun.sleep(50)
      })
      const afterHeap = heap()
      console.log(
        `flood: ${N} clients, max loop block ${floodBlock.toFixed(1)} ms (wall ${floodWall.toFixed(1)}) during flood+flush, ${sweepBlock.toFixed(1)} ms (wall ${sweepWall.toFixed(1)}) during sweep; heap ${(baseHeap / 2 ** 20).toFixed(1)} → ${(peakHeap / 2 ** 20).toFixed(1)} → ${(afterHeap / 2 ** 20).toFixed(1)} MiB`,
      )
      expect(sweepBlock).toBeLessThan(20)
      expect(floodBlock).toBeLessThan(20)
      expect(rows()).toBe(0)
      // What the flood added is gone (allowing some noise from the allocator).
      expect(afterHeap - baseHeap).toBeLessThan((peakHeap - baseHeap) * 0.25)
    },
    { timeout: 120_000 },
  )
})
