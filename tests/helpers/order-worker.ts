/**
 * A separate process placing one order on a shared DATA_DIR, for the cross-connection race in
 * tests/orders/concurrency.test.ts: `bun tests/helpers/order-worker.ts <dataDir> <startAt> <bodyJson>`.
 * Waits until `startAt` (epoch ms) so the processes collide, prints `{ status, code }`; given a
 * JSON array of bodies, places them one after another and prints an array of those.
 */
import { testConfig } from '../../src/config'
import { createDeps, closeDeps } from '../../src/deps'
import { createLogger } from '../../src/lib/log'
import { AppError } from '../../src/lib/errors'
import { placeOrder } from './factories'

const [dataDir, startAt, json] = process.argv.slice(2)
const deps = createDeps(testConfig({ dataDir, logLevel: 'silent', dbSynchronous: 'NORMAL' }), {
  log: createLogger('silent'),
})
const place = (body: unknown): { status: number; code?: string } => {
  try {
    return { status: placeOrder(deps, body as Parameters<typeof placeOrder>[1]).status }
  } catch (err) {
    return err instanceof AppError ? { status: err.status, code: err.code } : { status: 500, code: String(err) }
  }
}
const input = JSON.parse(json!) as unknown
while (Date.now() < Number(startAt)) await Bun.sleep(1)
const out = Array.isArray(input) ? input.map(place) : place(input)
closeDeps(deps)
console.log(JSON.stringify(out))
