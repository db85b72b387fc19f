/** Entry: config → open db (migrate) → app → listen → jobs; SIGTERM/SIGINT stop it gracefully. */
import { loadConfigOrExit } from './config'
import { serveUntilSignal, startServer } from './server'

serveUntilSignal(await startServer(loadConfigOrExit()))
