/**
 * `bun run resilience`: the whole resilience suite at full size, one table at the end.
 *
 *   crash        1,000 orders over HTTPS to the real server, SIGKILLed 6 times mid-burst
 *   concurrency  300 identical orders, 400 requests on one key, 100 racers per status move,
 *                200 orders racing for a discount with maxUses 25
 *   fuzz         1,000 requests per /api route (≈ 40,000)
 *   isolation    every cross-store route and list, scanned for the other store's values
 *   secrets      database, -wal and -shm bytes scanned for API keys and webhook secrets
 *   backup       `admin backup` under 8 clients posting orders, restore into a fresh DATA_DIR:
 *                every order acknowledged before it began, integrity ok, webhook secret opens
 *   replica      REPLICA_URL=file://…, 1,000 orders at 250/s, service and Litestream SIGKILLed
 *                mid-stream, `admin restore --from-replica` into a fresh DATA_DIR: every order
 *                acked more than 1 s before the kill, one generation, the service starts and signs
 *   flood        100,000 distinct IPv6 clients: loop never blocked > 20 ms, memory returns
 *   diskfull     DATA_DIR on a full tmpfs: 503s, degraded health, recovery, nothing lost (root)
 *   webhooks     DNS rebinding (10 names × 3 events × 3 attempts), one store's 40 hanging
 *                endpoints vs another store's deliveries, listing with 50,000 outbox rows
 *   edge         upload exhaustion (24 × 8 MB from store B while store A uploads), hoarding,
 *                restore-symlink (tampered snapshots, a link planted under /media)
 *
 * Flags: --orders N --kills N --fuzz-runs N --flood-clients N --replica-orders N --seed N --only crash,fuzz,...
 * The CI variant is tests/resilience/*.test.ts, `bun run test:resilience` (reduced sizes). Exit code 1 on any failure.
 */
import { runCrash } from './crash'
import { FULL_SIZES, runConcurrency } from './concurrency'
import { runFuzz } from './fuzz'
import { runIsolation } from './isolation'
import { runSecrets } from './secrets'
import { runBackup } from './backup'
import { runReplicaRestore } from './replica'
import { runIpv6Flood } from './flood'
import { canMountTmpfs, runDiskFull } from './disk-full'
import { runListingReads, runRebinding, runStoreStall } from './webhooks'
import { runHoarding, runRestoreSymlink, runUploadExhaustion } from './edge'
import { formatTable, type CaseResult } from './lib'

const args = process.argv.slice(2)
const flag = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : def
}
const onlyIdx = args.indexOf('--only')
const only = onlyIdx >= 0 ? new Set(args[onlyIdx + 1]!.split(',')) : undefined
const want = (name: string) => !only || only.has(name)
const seed = args.includes('--seed') ? flag('seed', 0) : undefined
const log = (line: string) => console.error(`  ${line}`)

const results: CaseResult[] = []
const run = async (name: string, fn: () => Promise<CaseResult | CaseResult[]>) => {
  if (!want(name)) return
  console.error(`» ${name}`)
  const out = await fn()
  for (const r of Array.isArray(out) ? out : [out]) {
    results.push(r)
    console.error(`  ${r.name}: ${r.failures} failure(s) in ${(r.ms / 1000).toFixed(1)} s`)
  }
}

const started = performance.now()
await run('crash', () =>
  runCrash({ orders: flag('orders', 1000), kills: flag('kills', 6), seed, log, eventTimeoutMs: 120_000 }),
)
await run('concurrency', () => runConcurrency(FULL_SIZES))
await run('fuzz', () => runFuzz({ runsPerRoute: flag('fuzz-runs', 1000), seed, log }))
await run('isolation', () => runIsolation())
await run('secrets', () => runSecrets({ keys: 50, webhooks: 20 }))
await run('backup', () => runBackup({ clients: 8, ordersBefore: 1000, ordersAfter: 200 }))
await run('replica', () => runReplicaRestore({ orders: flag('replica-orders', 1000), clients: 8, rate: 250 }))
await run('flood', () => runIpv6Flood({ clients: flag('flood-clients', 100_000) }))
if (canMountTmpfs()) await run('diskfull', () => runDiskFull({ burst: 200 }))
else if (want('diskfull')) console.error('» diskfull skipped: needs root to mount a tmpfs')
await run('webhooks', async () => [
  await runRebinding({ endpoints: 10 }),
  await runStoreStall({ hanging: 40, backlog: 5, events: 3 }),
  await runListingReads({ rows: 50_000 }),
])

await run('edge', async () => [
  await runUploadExhaustion({ uploads: 24, megabytes: 8, maxRssMb: 300 }),
  await runHoarding(),
  await runRestoreSymlink(),
])

console.log(`\n${formatTable(results)}\n`)
for (const r of results) {
  for (const n of r.notes) console.log(`- ${r.name}: ${n}`)
}
const failed = results.filter((r) => r.failures > 0)
for (const r of failed) {
  console.log(`\n${r.name}:`)
  for (const p of r.problems) console.log(`  ✗ ${p}`)
}
const outcome = failed.length === 0 ? 'all cases passed' : `${failed.length} case(s) failed`
console.log(`\n${outcome} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
process.exit(failed.length === 0 ? 0 : 1)
