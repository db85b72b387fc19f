import path from 'node:path'
import type { Manifest } from './snapshot'
import { BACKUPS_DIR } from './snapshot'
import type { BackupJob } from './worker'

export interface ScheduledResult {
  path: string
  manifest: Manifest
  removed: string[]
}

/**
 * One scheduled backup: a snapshot into DATA_DIR/backups made in a worker thread, then all but
 * the newest `keep` snapshots there are deleted.
 */
export function backupInWorker(dataDir: string, keep: number, now = Date.now()): Promise<ScheduledResult> {
  const worker = new Worker(new URL('./worker.ts', import.meta.url).href)
  const job: BackupJob = { dataDir, destDir: path.join(dataDir, BACKUPS_DIR), keep, now }
  return new Promise<ScheduledResult>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<({ ok: true } & ScheduledResult) | { ok: false; error: string }>) => {
      if (e.data.ok) resolve({ path: e.data.path, manifest: e.data.manifest, removed: e.data.removed })
      else reject(new Error(e.data.error))
    }
    worker.onerror = (e) => reject(new Error(e.message))
    worker.postMessage(job)
  }).finally(() => worker.terminate())
}
