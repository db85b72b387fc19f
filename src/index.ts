/** Entry: config → open db (migrate) → app → listen → jobs; SIGTERM/SIGINT stop it gracefully. */
import { ConfigError, loadConfig } from './config'
import { startServer } from './server'

let config
try {
  config = loadConfig()
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message)
    process.exit(2)
  }
  throw err
}

const running = await startServer(config)
running.deps.log.info('listening', { url: running.url, httpPort: running.httpPort, dataDir: config.dataDir, certFile: running.certFile })

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    running.deps.log.info('shutting down', { signal })
    await running.stop()
    process.exit(0)
  })
}
