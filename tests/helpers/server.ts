/**
 * Real listeners for the tests where sockets matter (TLS, redirects, client IPs, concurrency,
 * shutdown): `startServer` on ephemeral ports, and spawning `bun src/index.ts` as an operator
 * would, killing exactly the pid it started.
 */
import { readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { testConfig, type Config } from '../../src/config'
import { createDeps } from '../../src/deps'
import { createLogger } from '../../src/lib/log'
import type { Clock } from '../../src/lib/time'
import { startServer, type RunningServer } from '../../src/server'
import { tempDir } from './app'

export const ROOT = path.join(import.meta.dir, '../..')

export interface TestServer {
  running: RunningServer
  config: Config
  /** The PEM the client should trust (undefined in proxy mode). */
  ca: string | undefined
  fetch(path: string, init?: RequestInit): Promise<Response>
  stop(): Promise<void>
}

export async function startTestServer(
  overrides: Partial<Config> = {},
  opts: { clock?: Clock; keepDir?: boolean } = {},
): Promise<TestServer> {
  const config = testConfig({
    dataDir: tempDir('sf-srv-'),
    port: 0,
    httpPort: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    dbSynchronous: 'NORMAL',
    ...overrides,
  })
  const deps = createDeps(config, { clock: opts.clock, log: createLogger('silent') })
  const running = await startServer(config, { deps })
  const ca = running.certFile ? readFileSync(running.certFile, 'utf8') : undefined
  return {
    running,
    config,
    ca,
    fetch: (p, init = {}) =>
      fetch(running.url + p, { ...init, tls: ca ? { ca } : undefined, redirect: 'manual' } as RequestInit),
    async stop() {
      await running.stop()
      if (!opts.keepDir) rmSync(config.dataDir, { recursive: true, force: true })
    },
  }
}

/** A port nothing listens on right now (for spawned servers, which need fixed ports). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

/** Spawns the real entry point and resolves once it logs "listening". */
export async function spawnServer(env: Record<string, string>) {
  const proc = Bun.spawn(['bun', 'src/index.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let stderr = ''
  const reader = proc.stderr.getReader()
  const decoder = new TextDecoder()
  const listening = new Promise<void>((resolve, reject) => {
    ;(async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return reject(new Error(`server exited before listening:\n${stderr}`))
        stderr += decoder.decode(value)
        if (stderr.includes('"listening"')) resolve()
      }
    })().catch(reject)
  })
  const timer = setTimeout(() => proc.kill(), 20_000)
  await listening.finally(() => clearTimeout(timer))
  // Keep draining stderr so the child never blocks on a full pipe.
  const drained = (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return stderr
      stderr += decoder.decode(value)
    }
  })()
  return { proc, stderr: () => drained }
}
