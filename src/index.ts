/** Entry: config → open db (migrate) → app → listen → jobs; SIGTERM/SIGINT stop it gracefully. */
import { loadConfigOrExit } from './config'
import { startMemoryWatch } from './lib/memory-watch'
import { printPanelLink, serveUntilSignal, startServer } from './server'

const config = loadConfigOrExit()
const running = await startServer(config)
// The service's own process only: tests run many apps in one process and keep their own pace.
startMemoryWatch(config.memoryCollectStepMb)
// The panel's link is the first thing on the terminal; a first run's setup link follows.
printPanelLink(running)
serveUntilSignal(running)
