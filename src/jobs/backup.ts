import type { Config } from '../config'
import type { Clock } from '../lib/time'
import type { Logger } from '../lib/log'
import { backupInWorker } from '../backup/scheduled'

/**
 * The scheduled backup (BACKUP_CRON, default daily at 03:30): a snapshot into DATA_DIR/backups in
 * a worker thread, keeping the newest BACKUP_KEEP. Logs where it went, its size and duration.
 */
export async function runScheduledBackup(deps: { config: Config; clock: Clock; log: Logger }): Promise<void> {
  const { path, manifest, removed } = await backupInWorker(
    deps.config.dataDir,
    deps.config.backupKeep,
    deps.clock.now(),
  )
  deps.log.info('backup written', { path, bytes: manifest.dbBytes, ms: manifest.ms, rotatedOut: removed.length })
}
