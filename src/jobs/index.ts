/**
 * Background jobs (croner). Each job is a plain function of deps and a clock in its own file so
 * tests can call it directly; this file only schedules them.
 */
import { Cron } from 'croner'
import type { Deps } from '../context'
import { pruneExpired } from './prune'

export function startJobs(deps: Deps): () => void {
  const jobs: Cron[] = [
    new Cron('0 */10 * * * *', { protect: true, catch: (e) => deps.log.error('job prune failed', { error: String(e) }) }, () => pruneExpired(deps)),
  ]
  return () => jobs.forEach((j) => j.stop())
}
