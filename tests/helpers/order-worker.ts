/**
 * A separate process placing one order on a shared DATA_DIR, for the cross-connection race in
 * tests/orders-concurrency.test.ts: `bun tests/helpers/order-worker.ts <dataDir> <startAt> <bodyJson>`.
 * Waits until `startAt` (epoch ms) so the processes collide, prints `{ status, code }`.
 */
import { testConfig } from '../../src/config'
import { createDeps, closeDeps } from '../../src/deps'
import { createLogger } from '../../src/lib/log'
import { AppError } from '../../src/lib/errors'
import { placeOrder } from './orders'

const [dataDir, startAt, json] = process.argv.slice(2)
const deps = createDeps(testConfig({ dataDir, logLevel: 'silent', dbSynchronous: 'NORMAL' }), { log: createLogger('silent') })
while (Date.now() < Number(startAt)) await Bun.sleep(1)
let out: { status: number; code?: string }
try {
  out = { status: placeOrder(deps, JSON.parse(json!)).status }
} catch (err) {
  out = err instanceof AppError ? { status: err.status, code: err.code } : { status: 500, code: String(err) }
}
closeDeps(deps)
console.log(JSON.stringify(out))
