/**
 * Background jobs (croner). Each job is a plain function of deps and a clock in its own file so
 * tests can call it directly; this file only schedules them.
 */
import { Cron } from 'croner'
import type { Deps } from '../context'
import { pruneExpired } from './prune'
import { runBillingSweep } from './billing'
import { sweepDeliveries } from './webhooks'

export function startJobs(deps: Deps): () => void {
  const jobs: Cron[] = [
    new Cron('0 */10 * * * *', { protect: true, catch: (e) => deps.log.error('job prune failed', { error: String(e) }) }, () => pruneExpired(deps)),
  ]
  // Stores whose invoice is still unpaid after the last card retry are suspended.
  jobs.push(new Cron(deps.config.billingCron, { protect: true, catch: (e) => deps.log.error('job billing failed', { error: String(e) }) }, () => void runBillingSweep(deps)))
  // Webhook retries and crash leftovers; also once right away, for what a previous run left.
  const webhooks = new Cron(deps.config.webhookPollCron, { protect: true, catch: (e) => deps.log.error('job webhooks failed', { error: String(e) }) }, async () => {
    await sweepDeliveries(deps)
  })
  jobs.push(webhooks)
  void webhooks.trigger()
  return () => jobs.forEach((j) => j.stop())
}
