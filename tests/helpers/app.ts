/**
 * A fresh app on a real SQLite file in its own temp DATA_DIR, plus a tiny client that reads
 * like the API: `const [res, body] = await api.get('/api/v1/products', { key })`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect } from 'bun:test'
import { createApp } from '../../src/app'
import { testConfig, type Config } from '../../src/config'
import { createDeps, closeDeps } from '../../src/deps'
import { openDb, type Db } from '../../src/db/client'
import { createLogger, type Logger } from '../../src/lib/log'
import type { fixedClock, Clock, Ticker } from '../../src/lib/time'
import type { Deps } from '../../src/deps'
import type { StoreCacheOptions } from '../../src/db/cache'

export function tempDir(prefix = 'sf-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix))
}

/** A temp directory removed when its scope ends: `using dir = tempDirectory()`. */
export function tempDirectory(prefix = 'sf-test-'): { path: string } & Disposable {
  const dir = tempDir(prefix)
  return { path: dir, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) }
}

export interface TestApp {
  app: ReturnType<typeof createApp>
  deps: Deps
  config: Config
  clock: ReturnType<typeof fixedClock> | Clock
  api: Api
  /** A second connection, like the admin CLI's: its commits are seen through data_version. */
  adminDb(): Db
  close(): void
  /** `using t = makeApp()`: closed (connections, timers, DATA_DIR) when the scope ends. */
  [Symbol.dispose](): void
}

/** A Logger that keeps every line it is given (`msg` and fields), every level on. */
export function capturingLog(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = []
  const at = (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, ...fields })
  return { log: { debug: at, info: at, warn: at, error: at, enabled: () => true }, lines }
}

export function makeApp(
  overrides: Partial<Config> = {},
  opts: {
    clock?: Clock
    log?: Logger
    externalWrites?: Pick<StoreCacheOptions, 'externalLagMs' | 'now'>
    ticker?: Ticker
    cpuMs?: () => number
  } = {},
): TestApp {
  const dataDir = tempDir()
  const config = testConfig({ dataDir, logLevel: 'silent', dbSynchronous: 'NORMAL', ...overrides })
  // `adminDb()` stands in for another process (the CLI), whose start and exit alone outlast the
  // production lag (EXTERNAL_WRITE_LAG_MS); here its commits and the next request are microseconds
  // apart, so every request looks, unless a test steps a clock through the lag itself.
  const deps = createDeps(config, {
    clock: opts.clock,
    log: opts.log ?? createLogger('silent'),
    externalWrites: opts.externalWrites ?? { externalLagMs: 0 },
    ticker: opts.ticker,
    cpuMs: opts.cpuMs,
  })
  const app = createApp(deps)
  let admin: Db | undefined
  const t: TestApp = {
    app,
    deps,
    config,
    clock: deps.clock,
    api: new Api((req) => app.handle(req)),
    adminDb: () => (admin ??= openDb({ dataDir, synchronous: 'NORMAL' })),
    close() {
      app.gate.close()
      admin?.$client.close()
      closeDeps(deps)
      rmSync(dataDir, { recursive: true, force: true })
    },
    [Symbol.dispose]: () => t.close(),
  }
  return t
}

/**
 * The file's one app: made before its first test, closed after its last — the
 * `beforeAll(makeApp)` / `afterAll(close)` pair, once. The arguments are read when the file is
 * loaded; the app is made in `beforeAll`, so reading `t` at the file's top level is an error.
 */
export function appForFile(
  overrides: Partial<Config> = {},
  opts: { clock?: Clock; log?: Logger; ticker?: Ticker } = {},
): TestApp {
  let made: TestApp | undefined
  beforeAll(() => {
    made = makeApp(overrides, opts)
  })
  afterAll(() => made?.close())
  return new Proxy({} as TestApp, {
    get(_, name) {
      if (!made) throw new Error('appForFile: the app is made in beforeAll; use it inside a test or hook')
      return made[name as keyof TestApp]
    },
  })
}

export interface CallOptions {
  key?: string
  headers?: Record<string, string>
  /** Raw body text (for malformed JSON tests); otherwise `body` is JSON-encoded. */
  raw?: string
  ip?: string
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any

export class Api {
  constructor(
    private handle: (req: Request) => Promise<Response>,
    readonly base = 'http://localhost',
  ) {}

  async call(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<[Response, Json]> {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.key) headers.authorization = `Bearer ${opts.key}`
    if (opts.ip) headers['x-forwarded-for'] = opts.ip
    let payload: string | undefined
    if (opts.raw !== undefined) payload = opts.raw
    else if (body !== undefined) payload = JSON.stringify(body)
    if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json'
    const res = await this.handle(new Request(this.base + path, { method, headers, body: payload }))
    const text = await res.text()
    let json: Json = text
    try {
      json = text ? JSON.parse(text) : null
    } catch {
      /* not JSON: leave the text for the assertion to show */
    }
    return [res, json]
  }
  get = (path: string, opts?: CallOptions) => this.call('GET', path, undefined, opts)
  delete = (path: string, opts?: CallOptions) => this.call('DELETE', path, undefined, opts)
  post = (path: string, body?: unknown, opts?: CallOptions) => this.call('POST', path, body, opts)
  put = (path: string, body?: unknown, opts?: CallOptions) => this.call('PUT', path, body, opts)
}

/** expect(status) that prints the body when it fails. */
export function expectStatus(res: Response, body: unknown) {
  return {
    toBe(status: number) {
      if (res.status !== status) {
        throw new Error(
          `expected status ${status}, ` +
            `got ${res.status}: ${typeof body === 'string' ? body : JSON.stringify(body, null, 2)}`,
        )
      }
      expect(res.status).toBe(status)
    },
  }
}

/**
 * Real time shifted (< 60 s ahead) to read the start of a minute when made. Every rate-limit
 * window (1 min, 1 h, 1 day: whole minutes from the epoch) then has ≥ 60 s of real time left,
 * so a test that spends a small limit can't see it reset at a minute edge (a CI run did).
 */
export function windowStartClock(): Clock {
  const shift = 60_000 - (Date.now() % 60_000)
  return { now: () => Date.now() + shift }
}
