/** Entry: config → open db (migrate) → app → listen → jobs; SIGTERM/SIGINT stop it gracefully. */
import { loadConfigOrExit } from './config'
import { printPanelLink, serveUntilSignal, startServer } from './server'

const running = await startServer(loadConfigOrExit())
// The panel's link is the first thing on the terminal; a first run's setup link follows.
printPanelLink(running)
serveUntilSignal(running)
