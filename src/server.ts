/**
 * Serving: HTTPS on PORT (or plain HTTP behind a proxy with TRUST_PROXY=1), the HTTP_PORT
 * listener that answers everything with 301 to https, background jobs, graceful shutdown.
 */
import type { Config } from './config'
import { createApp } from './app'
import { createDeps, closeDeps } from './deps'
import type { Deps } from './deps'
import { startJobs } from './jobs'
import { MAX_BODY_BYTES } from './http/gate'
import { loadTls } from './tls'
import { lanOrigins, panelLinkLines, type PanelLink } from './cli/panel-links'
import { Checkpointer } from './db/checkpointer'

export interface RunningServer {
  deps: Deps
  /** https://host:port (or http:// in proxy mode) */
  url: string
  port: number
  httpPort: number | undefined
  certFile: string | undefined
  /** First run (an empty database): the one-time link that creates the first store and owner. */
  setupUrl?: string
  stop(): Promise<void>
}

export function redirectTarget(request: Request, config: Config, httpsPort: number): string {
  const url = new URL(request.url)
  if (config.publicUrl) return config.publicUrl + url.pathname + url.search
  const host = (request.headers.get('host') ?? 'localhost').replace(/:\d+$/, '')
  const port = httpsPort === 443 ? '' : `:${httpsPort}`
  return `https://${host}${port}${url.pathname}${url.search}`
}

export async function startServer(config: Config, opts: { deps?: Deps } = {}): Promise<RunningServer> {
  const deps = opts.deps ?? createDeps(config)
  const app = createApp(deps)
  const tls = config.trustProxy ? undefined : await loadTls(config)
  app.listen({
    port: config.port,
    hostname: config.host,
    // Only a backstop: Bun answers past it with an empty 413. The 1 MiB API limit is enforced
    // with a JSON 413 by the gate (declared Content-Length) and http/body-limit.ts (chunked).
    maxRequestBodySize: 256 * MAX_BODY_BYTES,
    ...(tls ? { tls: { cert: tls.cert, key: tls.key } } : {}),
  })
  const server = app.server!
  const port = server.port!
  let redirect: ReturnType<typeof Bun.serve> | undefined
  if (!config.trustProxy) {
    redirect = Bun.serve({
      port: config.httpPort,
      hostname: config.host,
      fetch: (req) =>
        new Response(null, {
          status: 301,
          headers: { location: redirectTarget(req, config, port), 'x-content-type-options': 'nosniff' },
        }),
    })
  }
  const stopJobs = startJobs(deps)
  // WAL checkpoints on their own thread, not inside a checkout COMMIT (docs/decisions/006).
  const checkpointer = new Checkpointer(deps.db, config.dataDir, deps.log, (until) => deps.checkout.holdWhile(until))
  // While Litestream runs it is the only checkpointer (db/checkpointer.ts, replica/supervisor.ts).
  await deps.replica.start({ up: () => checkpointer.pause(), down: () => checkpointer.resume() })
  const displayHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  let stopping: Promise<void> | undefined
  const origin = `${tls ? 'https' : 'http'}://${displayHost}:${port}`
  const setupToken = app.firstRun.issue(deps)
  return {
    setupUrl: setupToken
      ? `${config.publicUrl ? new URL(config.publicUrl).origin : origin}/admin/setup?token=${setupToken}`
      : undefined,
    deps,
    url: origin,
    port,
    httpPort: redirect?.port,
    certFile: tls?.certFile,
    stop() {
      // Stop accepting, let in-flight requests finish (bounded), then flush and close the db.
      stopping ??= (async () => {
        stopJobs()
        redirect?.stop(true)
        const drained = server.stop(false)
        deps.stopping.emit() // open event streams end, so the drain isn't held up by them
        const timeout = new Promise<'timeout'>((r) =>
          setTimeout(() => r('timeout'), config.shutdownTimeoutMs).unref?.(),
        )
        if ((await Promise.race([drained.then(() => 'done' as const), timeout])) === 'timeout') await server.stop(true)
        // Webhook sends already started get a short grace; unfinished ones stay claimed in the
        // outbox and are sent again after their lock expires (at least once).
        await deps.dispatcher.drain(Math.min(config.shutdownTimeoutMs, 5000))
        app.gate.close()
        await checkpointer.close()
        deps.log.info('wal checkpoints', { ...checkpointer.stats })
        closeDeps(deps)
        // Last: with the database closed, Litestream's final sync ships every commit.
        await deps.replica.stop()
      })()
      return stopping
    },
  }
}

/** Logs where it listens, then stops gracefully on SIGTERM/SIGINT (in-flight requests finish). */
export function serveUntilSignal(running: RunningServer): void {
  const { log, config } = running.deps
  // The handlers come first: a supervisor that sees "listening" may signal at once.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, async () => {
      log.info('shutting down', { signal })
      await running.stop()
      process.exit(0)
    })
  }
  log.info('listening', {
    url: running.url,
    httpPort: running.httpPort,
    dataDir: config.dataDir,
    certFile: running.certFile,
  })
  // On stdout, never in the log: the token opens the first owner account (valid until used or restart).
  if (running.setupUrl)
    process.stdout.write(
      `First run: open ${running.setupUrl} to create the first store and its owner (the link works once, ` +
        `until the service restarts).\n`,
    )
}

/** The panel's link first, with its LAN form and QR code when a phone could use one (cli/panel-links.ts). */
export function printPanelLink(
  running: RunningServer,
  link: PanelLink = { label: 'Seller panel', path: '/admin' },
): void {
  const lan = running.certFile ? lanOrigins(running.deps.config, running.port) : []
  process.stdout.write(panelLinkLines(link, running.url, lan))
}
