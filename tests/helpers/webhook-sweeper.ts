/**
 * A second OS process sweeping the same outbox (tests/webhooks/delivery.test.ts): it claims rows
 * through the same BEGIN IMMEDIATE path as the server, so the test can count double sends.
 * Prints how many attempts it made.
 */
import { loadConfig } from '../../src/config'
import { openDb } from '../../src/db/client'
import { createLogger } from '../../src/lib/log'
import { secretBoxFor } from '../../src/lib/secret-box'
import { systemClock } from '../../src/lib/time'
import { Dispatcher } from '../../src/modules/webhooks/dispatcher'

const config = loadConfig()
const db = openDb({ dataDir: config.dataDir, synchronous: 'NORMAL' })
const d = new Dispatcher({
  db,
  config,
  clock: systemClock,
  log: createLogger('silent'),
  secretBox: secretBoxFor(config),
})
const until = Date.now() + Number(process.env.SWEEP_FOR_MS ?? 1000)
let attempted = 0
// The test waits for this line before it sweeps too.
process.stderr.write('sweeping\n')
while (Date.now() < until) {
  attempted += (await d.sweep()).attempted
  await Bun.sleep(1)
}
d.close()
db.$client.close()
console.log(attempted)
