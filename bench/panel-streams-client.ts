/**
 * The client side of bench/panel-streams.ts, in its own process: STREAMS_N inbox streams
 * (`GET /admin/orders/live` with the session cookie, or STREAMS_COOKIES' in turn) over Bun's fetch, each read as it
 * arrives. A stream the server ends (after STREAM_MAX_MS) is reopened with its Last-Event-ID, as an EventSource would.
 * Prints JSON lines on stdout:
 *   {"open": n}                                 once every stream has its first bytes
 *   {"order": id, "at": [epoch ms, ...]}        when every stream has received order `id`'s event
 *                                               (only orders of the customer named PROBE are timed)
 * Reads order ids to wait for on stdin, one a line (the parent posts them).
 */
const url = process.env.STREAMS_URL!
const cookie = process.env.STREAMS_COOKIE!
/** Optional: several sessions' cookies, one a line, taken in turn (a session holds only a few streams). */
const cookies = process.env.STREAMS_COOKIES?.split('\n').filter(Boolean) ?? [cookie]
const n = Number(process.env.STREAMS_N ?? 1000)
const now = () => performance.timeOrigin + performance.now()
/** The customer name of the orders whose arrival is timed. */
export const PROBE = 'Latency Probe'
const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`)

/** order id → receive time per stream (index). */
const received = new Map<string, number[]>()
const counts = new Map<string, number>()
const wanted = new Set<string>()
let opened = 0

function seen(orderId: string, stream: number): void {
  let at = received.get(orderId)
  if (!at) received.set(orderId, (at = new Array<number>(n).fill(NaN)))
  if (!Number.isNaN(at[stream]!)) return
  at[stream] = now()
  const c = (counts.get(orderId) ?? 0) + 1
  counts.set(orderId, c)
  if (c === n && wanted.has(orderId)) report(orderId)
}

function report(orderId: string): void {
  wanted.delete(orderId)
  out({ order: orderId, at: received.get(orderId) })
  received.delete(orderId)
  counts.delete(orderId)
}

const PROBE_BYTES = Buffer.from(PROBE)
const BLOCK_END = Buffer.from('\n\n')
const ID = Buffer.from('id: ')

/**
 * One stream, read cheaply (this process shares the load CPU with wrk): a chunk is only decoded
 * when it holds a probe's name; otherwise only its last `id:` is picked out (for a reconnect).
 * A block cut across two chunks is carried over.
 */
async function stream(i: number): Promise<void> {
  let last: string | undefined
  let first = true
  for (;;) {
    const headers: Record<string, string> = { cookie: cookies[i % cookies.length]! }
    if (last) headers['last-event-id'] = last
    let res: Response
    try {
      res = await fetch(`${url}/admin/orders/live`, { headers, tls: { rejectUnauthorized: false } } as RequestInit)
    } catch (e) {
      process.stderr.write(`stream ${i}: ${(e as Error).message}\n`)
      await Bun.sleep(200)
      continue
    }
    if (res.status !== 200) throw new Error(`stream ${i}: ${res.status}`)
    let carry: Buffer | undefined
    for await (const chunk of res.body!) {
      if (first) {
        first = false
        if (++opened === n) out({ open: n })
      }
      let buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      if (carry) buf = Buffer.concat([carry, buf])
      const end = buf.lastIndexOf(BLOCK_END)
      carry = end + 2 < buf.length ? Buffer.from(buf.subarray(end < 0 ? 0 : end + 2)) : undefined
      if (end < 0) continue
      const whole = buf.subarray(0, end + 2)
      const at = whole.lastIndexOf(ID)
      if (at >= 0) last = whole.toString('latin1', at + 4, whole.indexOf(10, at)).trim()
      if (whole.indexOf(PROBE_BYTES) < 0) continue
      for (const block of whole.toString('utf8').split('\n\n')) {
        const data = /^data: (.*)$/m.exec(block)?.[1]
        // Only the parent's probe orders are timed (the load's thousands are not kept).
        if (data && /^event: order$/m.test(block) && data.includes(PROBE))
          seen((JSON.parse(data) as { id: string }).id, i)
      }
    }
  }
}

for (let i = 0; i < n; i++)
  void stream(i).catch((e) => (process.stderr.write(`${(e as Error).message}\n`), process.exit(1)))

let input = ''
process.stdin.on('data', (d) => {
  input += d
  let nl: number
  while ((nl = input.indexOf('\n')) >= 0) {
    const id = input.slice(0, nl).trim()
    input = input.slice(nl + 1)
    if (!id) continue
    wanted.add(id)
    if (counts.get(id) === n) report(id)
  }
})
