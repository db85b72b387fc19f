/**
 * Reads a `.cpuprofile` (`bun --cpu-prof`, or BENCH_SERVER_PROFILE for a bench's server) and
 * prints where the samples went by sample count, not by time (a profile's times charge idle
 * gaps to the sample before them): self samples per function, and inclusive samples per
 * function, each as a share of the non-idle samples and as µs per request when a request count
 * is given. Not a registered bench.
 *
 *   bun bench/profile-split.ts <file.cpuprofile> [requests] [--top 40] [--match text]
 */
export {}

const args = process.argv.slice(2)
const file = args[0]!
const requests = Number(args.find((a, i) => i > 0 && /^\d+$/.test(a) && !args[i - 1]!.startsWith('--')) ?? 0)
const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 40
const match = args.includes('--match') ? args[args.indexOf('--match') + 1]! : undefined

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
const prof = (await Bun.file(file).json()) as {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}
const byId = new Map(prof.nodes.map((n) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const shortUrl = (url: string) => url.replace(/^.*node_modules\//, '').replace(/^.*\/src\//, 'src/')
const name = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`
const IDLE = new Set(['(idle)', '(program)', '(garbage collector)', '(root)'])
const self = new Map<string, number>()
const incl = new Map<string, number>()
let busy = 0
for (const s of prof.samples) {
  const n = byId.get(s)!
  if (IDLE.has(n.callFrame.functionName)) continue
  busy++
  const k = name(n)
  self.set(k, (self.get(k) ?? 0) + 1)
  const seen = new Set<string>()
  for (let id: number | undefined = s; id !== undefined; id = parent.get(id)) {
    const m = byId.get(id)!
    const key = name(m)
    if (seen.has(key) || IDLE.has(m.callFrame.functionName)) continue
    seen.add(key)
    incl.set(key, (incl.get(key) ?? 0) + 1)
  }
}
const wallUs = prof.endTime - prof.startTime
const perSample = prof.samples.length ? wallUs / prof.samples.length : 0
console.log(
  `${prof.samples.length} samples, ${busy} busy (~${perSample.toFixed(0)} µs each)` +
    (requests ? `, ${requests} requests: ${((busy * perSample) / requests).toFixed(1)} µs busy per request` : ''),
)
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n## ${title}`)
  for (const [k, v] of [...m]
    .filter(([k]) => !match || k.includes(match))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(
      `${((100 * v) / busy).toFixed(1).padStart(5)} %  ` +
        `${requests ? `${((v * perSample) / requests).toFixed(2).padStart(7)} µs/req  ` : ''}${k}`,
    )
}
show('self', self)
show('inclusive', incl)
