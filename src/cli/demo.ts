/**
 * `bun run demo`: a working store in one command. Migrates DATA_DIR, creates (or reuses) the
 * store `demo` (demo-catalog.ts, demo-seed.ts), makes a fresh all-scopes key, uploads a drawn
 * picture for each product, starts the server and prints the panel's one-time link first (with
 * its LAN form and a QR code when a phone could use one), then ready-to-paste curl lines and the
 * storefront's URL (demo-instructions.ts). The request log goes to DATA_DIR/logs/ (demo-log.ts):
 * the terminal shows only warnings and errors, so the links stay on screen.
 */
import { loadConfigOrExit } from '../config'
import { createDeps } from '../deps'
import { startMemoryWatch } from '../lib/memory-watch'
import { serveUntilSignal, startServer } from '../server'
import { demoInstructions } from './demo-instructions'
import { demoLogger } from './demo-log'
import { seedDemo, seedDemoPictures } from './demo-seed'
import { lanOrigins } from './panel-links'

export { DEMO_DISCOUNT, DEMO_KEY_NAME, DEMO_OWNER_EMAIL, DEMO_SLUG } from './demo-catalog'
export { demoInstructions } from './demo-instructions'
export { seedDemo, seedDemoPictures, type DemoSeed } from './demo-seed'

async function main(): Promise<void> {
  const config = loadConfigOrExit()
  const { log, file } = demoLogger(config.dataDir, config.logLevel)
  const deps = createDeps(config, { log })
  const seed = seedDemo(deps)
  await seedDemoPictures(deps, seed)
  const running = await startServer(config, { deps })
  startMemoryWatch(config.memoryCollectStepMb)
  serveUntilSignal(running)
  const lan = running.certFile ? lanOrigins(config, running.port) : []
  process.stdout.write(demoInstructions(seed, running.url, running.certFile, { lan, logFile: file }))
}

if (import.meta.main) await main()
