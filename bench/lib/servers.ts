/** The real server as a child process, the bare `Bun.serve` twin returning the same bytes, and a round's row. */
import { ROOT } from './root'
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type { Row } from './types'
import { children, killChild, hookSignals, tempDir, cpuPlan } from './processes'
import { type LoadResult, fetchOnce } from './load'
import { fmtInt, fmtMs, fmtUs, fmtPct } from './format'

export interface ServerHandle {
  url: string
  port: number
  dataDir: string
  pid: number
  /** The server's stderr lines so far (JSON logs), for diagnosing a failed run. */
  logs: string[]
  stop(): Promise<void>
}

export function spawnTracked(
  cmd: string[],
  env: Record<string, string>,
  cwd = ROOT,
  stdin: 'ignore' | 'pipe' = 'ignore',
): ChildProcess {
  hookSignals()
  const child = spawn(cmd[0]!, cmd.slice(1), { cwd, env: { ...process.env, ...env }, stdio: [stdin, 'pipe', 'pipe'] })
  children.add(child)
  child.on('exit', () => children.delete(child))
  return child
}

/** Waits for a JSON line on stderr with `msg` = wanted and a `url`; keeps draining after. */
export function waitForListening(
  child: ChildProcess,
  logs: string[],
  wanted: string,
  timeoutMs = 20_000,
): Promise<string> {
  let tail = 0
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not log '${wanted}' within ${timeoutMs} ms:\n${logs.join('\n')}`)),
      timeoutMs,
    )
    const rl = createInterface({ input: child.stderr! })
    let found = false
    rl.on('line', (line) => {
      // The first lines (start-up) and the latest ones (e.g. what it logs when stopping), kept
      // cheaply: a slow reader fills the pipe and the server's log writes then wait on it.
      if (logs.length < 1000) logs.push(line)
      else logs[250 + (tail++ % 750)] = line
      if (found || !line.includes(wanted)) return
      try {
        const j = JSON.parse(line)
        if (j.msg === wanted && typeof j.url === 'string') {
          found = true
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

export function stopper(child: ChildProcess): () => Promise<void> {
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
  /** A module to run before the server's own (`bun --preload`), e.g. bench/memory-preload.ts. */
  preload?: string
}

/** The real server: `bun src/index.ts` on PORT=0/HTTP_PORT=0 (the OS picks free ports). */
export async function startServer(opts: StartServerOpts = {}): Promise<ServerHandle> {
  const dataDir = opts.dataDir ?? tempDir()
  const prefix = opts.pin === false ? [] : cpuPlan().server
  const profile = process.env.BENCH_SERVER_PROFILE
    ? ['--cpu-prof', '--cpu-prof-md', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`]
    : []
  const child = spawnTracked(
    [...prefix, process.execPath, ...profile, ...(opts.preload ? ['--preload', opts.preload] : []), 'src/index.ts'],
    {
      DATA_DIR: dataDir,
      PORT: '0',
      HTTP_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...opts.env,
    },
    opts.cwd,
  )
  const logs: string[] = []
  const url = (await waitForListening(child, logs, 'listening')).replace('//127.0.0.1:', '//localhost:')
  return { url, port: Number(new URL(url).port), dataDir, pid: child.pid!, logs, stop: stopper(child) }
}

/**
 * A bare `Bun.serve` over TLS with the given cert, answering every request with `body` and
 * `headers` (e.g. the real server's bytes and content-type) — the ceiling to compare against.
 */
export async function startBareServer(opts: {
  certFile: string
  keyFile: string
  body: string | Uint8Array
  contentType?: string
  pin?: boolean
  /** The answer's status (default 200). */
  status?: number
  /** Read and parse each request's body as JSON before answering (a POST's floor). */
  readJson?: boolean
}): Promise<ServerHandle> {
  const dir = tempDir('sf-bare-')
  const bodyFile = path.join(dir, 'body')
  writeFileSync(bodyFile, opts.body)
  const prefix = opts.pin === false ? [] : cpuPlan().server
  const child = spawnTracked([...prefix, process.execPath, path.join(ROOT, 'bench/bare-server.ts')], {
    BARE_CERT: opts.certFile,
    BARE_KEY: opts.keyFile,
    BARE_BODY: bodyFile,
    BARE_CONTENT_TYPE: opts.contentType ?? 'application/json',
    BARE_STATUS: String(opts.status ?? 200),
    BARE_READ_JSON: opts.readJson ? '1' : '0',
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
export async function startBareTwin(
  dataDir: string,
  first: { text: string; headers: Headers },
  path_: string,
): Promise<ServerHandle> {
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
