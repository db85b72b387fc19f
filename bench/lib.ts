/**
 * Shared pieces of the benchmarks (see bench/run.ts for how to run them):
 *
 * - `startServer(opts)`: the real server (`bun src/index.ts`) as a child process on a temp
 *   DATA_DIR and random free ports, with extra env (e.g. raised rate limits), pinned to a CPU
 *   with `taskset` when the machine has one to spare. Resolves once the server logs
 *   `{"msg":"listening","url":...}` on stderr.
 * - `startBareServer(opts)`: a bare `Bun.serve` over the same TLS cert answering every request
 *   with fixed bytes (bench/bare-server.ts), the yardstick the real server is compared to.
 * - `seed(dataDir, opts)`: a store, an all-scopes key and products with variants, written with
 *   the services themselves (same migrations, same validation) before the server starts.
 * - `load(opts)`: `wrk --latency` (Lua script for method/headers/body), or a Bun keep-alive load
 *   generator when wrk is missing (`apt-get install -y wrk` for the real thing); parsed into
 *   requests/s and p50/p90/p99 latency.
 * - `printTable(rows)`, `fmt*` helpers, and `cpuPlan()` saying which CPU runs what.
 *
 * Only the child processes started here are ever stopped (by pid), also on Ctrl-C of the bench.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'

export const ROOT = path.resolve(import.meta.dir, '..')

// ---------------------------------------------------------------------------------------------
// Types every bench module shares

export interface BenchOpts {
  /** Smaller data and shorter runs (`--quick`). */
  quick: boolean
  /** Seconds per load run. */
  duration: number
  /** Concurrent connections. */
  connections: number
  /** Use the Bun load generator even when wrk is installed (`--bun-load`). */
  bunLoad: boolean
}

export type Row = Record<string, string | number>

export interface BenchResult {
  name: string
  /** Shown above the table. */
  title?: string
  rows: Row[]
  /** Free lines printed under the table (pinning, notes, targets). */
  notes?: string[]
  /** Whether the bench met its stated target (undefined: no target). */
  pass?: boolean
  /** One line for the combined summary. */
  summary?: string
}

// ---------------------------------------------------------------------------------------------
// Processes: started here, stopped here, by pid only.

const children = new Set<ChildProcess>()
const tempDirs = new Set<string>()

function killChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (child.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(child.pid, signal)
    } catch {
      /* already gone */
    }
  }
}

/** Stops every child this process started and removes the temp dirs. */
export function cleanupAll(): void {
  for (const c of children) killChild(c, 'SIGKILL')
  children.clear()
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true })
  tempDirs.clear()
}

let signalsHooked = false
function hookSignals(): void {
  if (signalsHooked) return
  signalsHooked = true
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      cleanupAll()
      process.exit(130)
    })
  }
  process.on('exit', () => cleanupAll())
}

export function tempDir(prefix = 'sf-bench-'): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix))
  tempDirs.add(d)
  return d
}

// ---------------------------------------------------------------------------------------------
// CPU pinning

export interface CpuPlan {
  /** taskset prefix for the server, e.g. ['taskset', '-c', '0'], or [] when not pinning. */
  server: string[]
  load: string[]
  description: string
}

let cachedPlan: CpuPlan | undefined
let wantPriority = false
/**
 * `--priority`: run the servers and the load generator at nice -10, so other work on a shared
 * machine (builds, test runs) disturbs the figures less. Needs root or CAP_SYS_NICE.
 */
export function setPriority(on: boolean): void {
  wantPriority = on
  cachedPlan = undefined
}

/** 2+ CPUs and taskset: server on cpu 0, load generator on cpu 1. Otherwise unpinned. */
export function cpuPlan(): CpuPlan {
  if (cachedPlan) return cachedPlan
  const n = cpus().length
  const hasTaskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0
  const nice = wantPriority && spawnSync('nice', ['-n', '-10', 'true']).status === 0 ? ['nice', '-n', '-10'] : []
  const prio = nice.length ? ', nice -10' : wantPriority ? ', --priority ignored: nice -10 not permitted' : ''
  if (n >= 2 && hasTaskset) {
    cachedPlan = { server: [...nice, 'taskset', '-c', '0'], load: [...nice, 'taskset', '-c', '1'], description: `server pinned to cpu 0, load generator to cpu 1 (taskset; ${n} CPUs${prio})` }
  } else {
    cachedPlan = { server: nice, load: nice, description: `not pinned (${n} CPU${n === 1 ? '' : 's'}${hasTaskset ? '' : ', no taskset'}${prio}): server and load share CPUs, figures are lower` }
  }
  return cachedPlan
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux); NaN elsewhere.
 * CPU per request is steadier than req/s when the machine is shared: waiting for a CPU costs
 * wall time, not CPU time.
 */
export function cpuTimeMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields[0] is field 3 (state); utime is field 14, stime field 15.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK
  } catch {
    return NaN
  }
}
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100

// ---------------------------------------------------------------------------------------------
// Servers

export interface ServerHandle {
  url: string
  port: number
  dataDir: string
  pid: number
  /** The server's stderr lines so far (JSON logs), for diagnosing a failed run. */
  logs: string[]
  stop(): Promise<void>
}

export function spawnTracked(cmd: string[], env: Record<string, string>, cwd = ROOT): ChildProcess {
  hookSignals()
  const child = spawn(cmd[0]!, cmd.slice(1), { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  child.on('exit', () => children.delete(child))
  return child
}

/** Waits for a JSON line on stderr with `msg` = wanted and a `url`; keeps draining after. */
function waitForListening(child: ChildProcess, logs: string[], wanted: string, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not log '${wanted}' within ${timeoutMs} ms:\n${logs.join('\n')}`)), timeoutMs)
    const rl = createInterface({ input: child.stderr! })
    rl.on('line', (line) => {
      // The first lines (start-up) and the latest ones (e.g. what it logs when stopping).
      logs.push(line)
      if (logs.length > 1000) logs.splice(250, 1)
      try {
        const j = JSON.parse(line)
        if (j.msg === wanted && typeof j.url === 'string') {
          clearTimeout(timer)
          resolve(j.url)
        }
      } catch {
        /* not JSON */
      }
    })
    child.stdout!.resume()
    child.on('exit', (code, sig) => {
      clearTimeout(timer)
      reject(new Error(`server exited (${code ?? sig}) before listening:\n${logs.join('\n')}`))
    })
  })
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      const hard = setTimeout(() => killChild(child, 'SIGKILL'), 5000)
      child.once('exit', () => {
        clearTimeout(hard)
        resolve()
      })
      killChild(child, 'SIGTERM')
    })
}

export interface StartServerOpts {
  /** Existing DATA_DIR (seeded); a fresh temp dir when absent. */
  dataDir?: string
  /** Extra environment, e.g. { RATE_LIMIT_KEY_PER_MIN: '100000000' }. */
  env?: Record<string, string>
  /** Pin to the server CPU (default true). */
  pin?: boolean
  /** Checkout to run `src/index.ts` from (default: this one), e.g. to compare two revisions. */
  cwd?: string
}

/** The real server: `bun src/index.ts` on PORT=0/HTTP_PORT=0 (the OS picks free ports). */
export async function startServer(opts: StartServerOpts = {}): Promise<ServerHandle> {
  const dataDir = opts.dataDir ?? tempDir()
  const prefix = opts.pin === false ? [] : cpuPlan().server
  const profile = process.env.BENCH_SERVER_PROFILE ? ['--cpu-prof-md', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`] : []
  const child = spawnTracked([...prefix, process.execPath, ...profile, 'src/index.ts'], {
    DATA_DIR: dataDir,
    PORT: '0',
    HTTP_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...opts.env,
  }, opts.cwd)
  const logs: string[] = []
  const url = (await waitForListening(child, logs, 'listening')).replace('//127.0.0.1:', '//localhost:')
  return { url, port: Number(new URL(url).port), dataDir, pid: child.pid!, logs, stop: stopper(child) }
}

/**
 * A bare `Bun.serve` over TLS with the given cert, answering every request with `body` and
 * `headers` (e.g. the real server's bytes and content-type) — the ceiling to compare against.
 */
export async function startBareServer(opts: { certFile: string; keyFile: string; body: string | Uint8Array; contentType?: string; pin?: boolean }): Promise<ServerHandle> {
  const dir = tempDir('sf-bare-')
  const bodyFile = path.join(dir, 'body')
  writeFileSync(bodyFile, opts.body)
  const prefix = opts.pin === false ? [] : cpuPlan().server
  const child = spawnTracked([...prefix, process.execPath, path.join(ROOT, 'bench/bare-server.ts')], {
    BARE_CERT: opts.certFile,
    BARE_KEY: opts.keyFile,
    BARE_BODY: bodyFile,
    BARE_CONTENT_TYPE: opts.contentType ?? 'application/json',
  })
  const logs: string[] = []
  const url = await waitForListening(child, logs, 'listening')
  return { url, port: Number(new URL(url).port), dataDir: dir, pid: child.pid!, logs, stop: stopper(child) }
}

/** The round with the most requests per second: on a shared machine, the least disturbed. */
export const bestRound = (rs: LoadResult[]): LoadResult => rs.reduce((a, b) => (b.rps > a.rps ? b : a))

/** One server's row of a real-vs-bare table. */
export const loadRow = (name: string, r: LoadResult): Row => ({
  server: name,
  'req/s': fmtInt(r.rps),
  p50: fmtMs(r.p50),
  p90: fmtMs(r.p90),
  p99: fmtMs(r.p99),
  'server CPU/req': fmtUs(r.cpuUsPerReq),
  'server CPU use': fmtPct(r.serverCpuShare),
  requests: fmtInt(r.requests),
  'non-2xx': r.non2xx,
  errors: r.errors,
})

/**
 * The bare twin of a real answer: a bare server with the real server's certificate (in
 * `dataDir/tls`) returning `first`'s bytes and content type, checked at `path` to answer the
 * very same bytes, so the two are compared on equal terms.
 */
export async function startBareTwin(dataDir: string, first: { text: string; headers: Headers }, path_: string): Promise<ServerHandle> {
  const bare = await startBareServer({
    certFile: path.join(dataDir, 'tls/cert.pem'),
    keyFile: path.join(dataDir, 'tls/key.pem'),
    body: first.text,
    contentType: first.headers.get('content-type') ?? 'application/json',
  })
  if ((await fetchOnce(bare.url + path_)).text !== first.text) {
    await bare.stop()
    throw new Error('bare server does not return the same bytes')
  }
  return bare
}

// ---------------------------------------------------------------------------------------------
// Seeding: services on the DATA_DIR before the server opens it.

export interface SeedOpts {
  slug?: string
  products?: number
  variantsPerProduct?: number
  categories?: number
  plan?: 'free' | 'pro' | 'lifetime'
  /** Published stores are visible to public endpoints (orders, reviews). */
  published?: boolean
  whatsapp?: string
  scopes?: string[] | 'all'
}

export interface Seeded {
  storeId: string
  slug: string
  key: string
  productIds: string[]
  variantIds: string[]
  categoryIds: string[]
}

/**
 * Creates a store, an API key and products (with variants) through the services. Runs in this
 * process on `dataDir`, then closes the database so the server can open it.
 */
export async function seed(dataDir: string, opts: SeedOpts = {}): Promise<Seeded> {
  const { testConfig } = await import('../src/config')
  const { createDeps, closeDeps } = await import('../src/deps')
  const { ctxFor } = await import('../src/kernel/context')
  const { createStore } = await import('../src/modules/platform-stores/service')
  const { createKey } = await import('../src/modules/keys/service')
  const { createProduct } = await import('../src/modules/products/service')
  const { createCategory } = await import('../src/modules/categories/service')
  const { stores } = await import('../src/db/schema')
  const { eq } = await import('drizzle-orm')

  const deps = createDeps(testConfig({ dataDir, logLevel: 'silent', proMaxProducts: 100_000, proMaxCategories: 10_000 }))
  try {
    const slug = opts.slug ?? 'bench-store'
    let store = createStore(deps, { name: 'Bench Store', slug, plan: opts.plan ?? 'pro', currency: 'USD', whatsapp: opts.whatsapp ?? '+14155550123' })
    if (opts.published ?? true) store = deps.db.update(stores).set({ isPublished: true }).where(eq(stores.id, store.id)).returning().get()!
    const scopes = opts.scopes === undefined || opts.scopes === 'all' ? ['all'] : opts.scopes
    const { key } = createKey(deps, { storeId: store.id, scopes, name: 'bench' })
    const ctx = ctxFor(deps, store)
    const categoryIds: string[] = []
    for (let i = 0; i < (opts.categories ?? 3); i++) categoryIds.push(createCategory(ctx, { name: `Category ${i + 1}`, position: i }).id)
    const productIds: string[] = []
    const variantIds: string[] = []
    const nVariants = opts.variantsPerProduct ?? 3
    for (let i = 0; i < (opts.products ?? 60); i++) {
      const p = createProduct(ctx, {
        name: `Product ${i + 1}`,
        description: `A fine product number ${i + 1}, described in a sentence or two so the payload looks real.`,
        price: 10 + (i % 40) + 0.99,
        comparePrice: i % 3 === 0 ? 59.99 : null,
        imageUrl: `https://cdn.example.com/products/${i + 1}.jpg`,
        categoryId: categoryIds.length ? categoryIds[i % categoryIds.length] : null,
        variants: Array.from({ length: nVariants }, (_, j) => ({ name: ['Small', 'Medium', 'Large', 'XL', 'XXL'][j % 5]! + (j >= 5 ? ` ${j}` : ''), price: 10 + (i % 40) + j + 0.99 })),
      })
      productIds.push(p.id)
      for (const v of p.variants) variantIds.push(v.id)
    }
    return { storeId: store.id, slug, key, productIds, variantIds, categoryIds }
  } finally {
    closeDeps(deps)
  }
}

// ---------------------------------------------------------------------------------------------
// Load

export interface LoadOpts {
  url: string
  method?: string
  headers?: Record<string, string>
  body?: string
  connections?: number
  durationSec?: number
  /** wrk threads (default 1: one load CPU). */
  threads?: number
  /**
   * A full wrk Lua script instead of the generated one (for bodies that vary per request).
   * Ignored by the Bun fallback, which then uses method/headers/body.
   */
  luaScript?: string
  bunLoad?: boolean
  /** The server's pid: its CPU time during the run is reported as `cpuUsPerReq`. */
  serverPid?: number
}

export interface LoadResult {
  tool: 'wrk' | 'bun'
  requests: number
  rps: number
  /** Milliseconds. */
  p50: number
  p90: number
  p99: number
  /** Responses that were not 2xx/3xx. */
  non2xx: number
  /** Connect/read/write/timeout errors. */
  errors: number
  durationSec: number
  /** Server CPU (user + system) per completed request, µs; NaN when not measured. */
  cpuUsPerReq: number
  /** Share of one CPU the server used during the run (1 = a full core). */
  serverCpuShare: number
}

let wrkChecked: boolean | undefined
export function hasWrk(): boolean {
  wrkChecked ??= spawnSync('wrk', ['-v'], { stdio: 'ignore' }).error === undefined
  return wrkChecked
}
export const WRK_MISSING = 'wrk not found: using the Bun load generator (slower, it costs CPU the server may share). Install wrk with `apt-get install -y wrk`.'

const luaString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`

function wrkScript(o: LoadOpts): string {
  const lines = [`wrk.method = ${luaString(o.method ?? 'GET')}`]
  for (const [k, v] of Object.entries(o.headers ?? {})) lines.push(`wrk.headers[${luaString(k)}] = ${luaString(v)}`)
  if (o.body !== undefined) lines.push(`wrk.body = ${luaString(o.body)}`)
  return lines.join('\n') + '\n'
}

/** "1.23ms" / "850.00us" / "2.01s" → ms */
function wrkMs(s: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(s.trim())
  if (!m) return NaN
  const n = Number(m[1])
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000
}

export function parseWrk(out: string, durationSec: number): Omit<LoadResult, 'tool' | 'cpuUsPerReq' | 'serverCpuShare'> {
  const pct = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+(\\S+)`, 'm').exec(out)
    return m ? wrkMs(m[1]!) : NaN
  }
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0)
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0)
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0)
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  const errors = sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0
  return { requests, rps, p50: pct('50'), p90: pct('90'), p99: pct('99'), non2xx, errors, durationSec }
}

/** Runs the load (pinned to the load CPU) and returns throughput and latency. */
export async function load(o: LoadOpts): Promise<LoadResult> {
  const cpu0 = o.serverPid ? cpuTimeMs(o.serverPid) : NaN
  const t0 = performance.now()
  const r = await runLoad(o)
  const cpuMs = o.serverPid ? cpuTimeMs(o.serverPid) - cpu0 : NaN
  const wallMs = performance.now() - t0
  return { ...r, cpuUsPerReq: r.requests ? (cpuMs * 1000) / r.requests : NaN, serverCpuShare: cpuMs / wallMs }
}

async function runLoad(o: LoadOpts): Promise<Omit<LoadResult, 'cpuUsPerReq' | 'serverCpuShare'>> {
  const connections = o.connections ?? 50
  const durationSec = o.durationSec ?? 10
  const pin = cpuPlan().load
  if (hasWrk() && !o.bunLoad) {
    const dir = tempDir('sf-wrk-')
    const script = path.join(dir, 'script.lua')
    writeFileSync(script, o.luaScript ?? wrkScript(o))
    const args = [...pin, 'wrk', `-t${o.threads ?? 1}`, `-c${connections}`, `-d${durationSec}s`, '--latency', '--timeout', '10s', '-s', script, o.url]
    const child = spawnTracked(args, {})
    let out = ''
    child.stdout!.on('data', (d) => (out += d))
    child.stderr!.on('data', (d) => (out += d))
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)))
    if (code !== 0) throw new Error(`wrk failed (${code}):\n${out}`)
    return { tool: 'wrk', ...parseWrk(out, durationSec) }
  }
  // Bun fallback: a child process (so it can be pinned) running bench/bun-load.ts.
  const child = spawnTracked([...pin, process.execPath, path.join(ROOT, 'bench/bun-load.ts')], {
    LOAD_SPEC: JSON.stringify({ url: o.url, method: o.method ?? 'GET', headers: o.headers ?? {}, body: o.body, connections, durationSec }),
  })
  let out = ''
  let err = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (err += d))
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)))
  if (code !== 0) throw new Error(`bun load generator failed (${code}):\n${err}`)
  return { tool: 'bun', ...(JSON.parse(out) as Omit<LoadResult, 'tool' | 'cpuUsPerReq' | 'serverCpuShare'>) }
}

/** One request with the self-signed cert accepted; returns status, headers and body text. */
export async function fetchOnce(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, { ...init, tls: { rejectUnauthorized: false } } as RequestInit)
  return { status: res.status, headers: res.headers, text: await res.text() }
}

// ---------------------------------------------------------------------------------------------
// Output

export const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—')
export const fmtMs = (n: number) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms` : '—')
export const fmtUs = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} µs` : '—')
export const fmtPct = (n: number) => (Number.isFinite(n) ? `${(n * 100).toFixed(1)} %` : '—')

/** Prints rows as an aligned text table (columns from the first row's keys, in order). */
export function printTable(rows: Row[], out: (s: string) => void = console.log): void {
  if (rows.length === 0) return out('(no rows)')
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))]
  const cell = (v: string | number | undefined) => (v === undefined ? '' : String(v))
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)))
  const numeric = cols.map((c) => rows.every((r) => r[c] === undefined || typeof r[c] === 'number' || /^[\d,.]+( ms| µs| %|x)?$|^—$/.test(cell(r[c]))))
  const line = (vals: string[]) => '| ' + vals.map((v, i) => (numeric[i] ? v.padStart(width[i]!) : v.padEnd(width[i]!))).join(' | ') + ' |'
  out(line(cols))
  out('|' + width.map((w, i) => (numeric[i] ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|')
  for (const r of rows) out(line(cols.map((c) => cell(r[c]))))
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
export const fileExists = existsSync
