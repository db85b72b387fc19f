/**
 * Load from a second process: wrk (or a Bun keep-alive loop), parsed into req/s, latency and server CPU per request.
 */
import { ROOT } from './root'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { tempDir, cpuPlan, cpuTimeMs } from './processes'
import { spawnTracked } from './servers'

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
export const WRK_MISSING =
  'wrk not found: using the Bun load generator (slower, it costs CPU the server may share). Install wrk ' +
  'with `apt-get install -y wrk`.'

export const luaString = (s: string) =>
  `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`

export function wrkScript(o: LoadOpts): string {
  const lines = [`wrk.method = ${luaString(o.method ?? 'GET')}`]
  for (const [k, v] of Object.entries(o.headers ?? {})) lines.push(`wrk.headers[${luaString(k)}] = ${luaString(v)}`)
  if (o.body !== undefined) lines.push(`wrk.body = ${luaString(o.body)}`)
  return `${lines.join('\n')}\n`
}

/** "1.23ms" / "850.00us" / "2.01s" → ms */
export function wrkMs(s: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(s.trim())
  if (!m) return NaN
  const n = Number(m[1])
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000
}

export function parseWrk(
  out: string,
  durationSec: number,
): Omit<LoadResult, 'tool' | 'cpuUsPerReq' | 'serverCpuShare'> {
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

export async function runLoad(o: LoadOpts): Promise<Omit<LoadResult, 'cpuUsPerReq' | 'serverCpuShare'>> {
  const connections = o.connections ?? 50
  const durationSec = o.durationSec ?? 10
  const pin = cpuPlan().load
  if (hasWrk() && !o.bunLoad) {
    const dir = tempDir('sf-wrk-')
    const script = path.join(dir, 'script.lua')
    writeFileSync(script, o.luaScript ?? wrkScript(o))
    const args = [
      ...pin,
      'wrk',
      `-t${o.threads ?? 1}`,
      `-c${connections}`,
      `-d${durationSec}s`,
      '--latency',
      '--timeout',
      '10s',
      '-s',
      script,
      o.url,
    ]
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
    LOAD_SPEC: JSON.stringify({
      url: o.url,
      method: o.method ?? 'GET',
      headers: o.headers ?? {},
      body: o.body,
      connections,
      durationSec,
    }),
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
export async function fetchOnce(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, { ...init, tls: { rejectUnauthorized: false } } as RequestInit)
  return { status: res.status, headers: res.headers, text: await res.text() }
}
