import type { Dispatcher, SweepResult } from '../modules/webhooks'

/**
 * Sends every webhook delivery that is due: retries whose time has come and `sending` rows
 * whose claim expired (a crash mid-send). Waits for those attempts to be recorded, so tests can
 * call it and then look. The croner job runs it on `WEBHOOK_POLL_CRON` and once at start.
 */
export function sweepDeliveries(deps: { dispatcher: Pick<Dispatcher, 'sweep'> }): Promise<SweepResult> {
  return deps.dispatcher.sweep()
}
