/**
 * Runs one snapshot off the event loop: `VACUUM INTO` reads the whole database in one call
 * (~1 s per 100 MB here), which would stall every request if the service ran it on its own thread.
 */
import { createSnapshot, rotateSnapshots } from './snapshot'

declare const self: Worker

export interface BackupJob {
  dataDir: string
  destDir: string
  keep: number
  now: number
}

self.onmessage = (event: MessageEvent<BackupJob>) => {
  const { dataDir, destDir, keep, now } = event.data
  try {
    const { path, manifest } = createSnapshot(dataDir, destDir, now)
    const removed = rotateSnapshots(destDir, keep)
    self.postMessage({ ok: true, path, manifest, removed })
  } catch (err) {
    self.postMessage({ ok: false, error: (err as Error).message })
  }
}
