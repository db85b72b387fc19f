/**
 * Background jobs (croner). Each job is a plain function of deps and a clock in its own file so
 * tests can call it directly; this file only schedules them.
 */
import { Cron } from 'croner'
import type { CtxBase } from '../kernel/context'
import type { Logger } from '../lib/log'
import type { Dispatcher } from '../modules/webhooks'
import type { PushDispatcher } from '../modules/push'
import type { PruneDeps } from './prune'
import { pruneExpired } from './prune'
import { runBillingSweep } from './billing'
import { sweepDeliveries } from './webhooks'
import { runScheduledBackup } from './backup'
import { holdPidFile } from '../backup/pid'
import { expirePendingOrders } from './expire-orders'
import { prunePeople } from './prune-people'

/** What the scheduled jobs use, together. */
export type JobDeps = CtxBase &
  PruneDeps & { log: Logger; dispatcher: Pick<Dispatcher, 'sweep'>; pushes: Pick<PushDispatcher, 'sweep'> }

export function startJobs(deps: JobDeps): () => void {
  // Jobs run only in the service, so this is where it marks DATA_DIR as held: `admin restore`
  // refuses to replace the database under a running service (backup/pid.ts).
  holdPidFile(deps.config.dataDir)
  // A failing run is logged and the schedule goes on; `protect` skips a tick while one still runs.
  const opts = (name: string) => ({
    protect: true,
    catch: (e: unknown) => deps.log.error(`job ${name} failed`, { error: String(e) }),
  })
  const jobs: Cron[] = [new Cron('0 */10 * * * *', opts('prune'), () => pruneExpired(deps))]
  // Activity past 180 days, expired sessions and links (daily, off-peak).
  jobs.push(new Cron('0 15 4 * * *', opts('prune-people'), () => prunePeople(deps)))
  // Pending orders past their store's pendingOrderTtlHours are cancelled and their stock put back.
  jobs.push(new Cron('30 * * * * *', opts('expire-orders'), () => void expirePendingOrders(deps)))
  // Stores whose invoice is still unpaid after the last card retry are suspended.
  jobs.push(new Cron(deps.config.billingCron, opts('billing'), () => void runBillingSweep(deps)))
  // Webhook retries and crash leftovers; also once right away, for what a previous run left.
  const webhooks = new Cron(deps.config.webhookPollCron, opts('webhooks'), async () => {
    await sweepDeliveries(deps)
  })
  jobs.push(webhooks)
  void webhooks.trigger()
  // Push retries that fell due and pushes a previous run left queued (the same schedule).
  const pushes = new Cron(deps.config.webhookPollCron, opts('pushes'), () => deps.pushes.sweep())
  jobs.push(pushes)
  void pushes.trigger()
  if (deps.config.backupKeep > 0)
    jobs.push(new Cron(deps.config.backupCron, opts('backup'), () => runScheduledBackup(deps)))
  return () => jobs.forEach((j) => j.stop())
}
