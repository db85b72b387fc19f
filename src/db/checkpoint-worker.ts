/**
 * The WAL checkpointer's thread (db/checkpointer.ts): its own connection, a PASSIVE checkpoint
 * every `intervalMs`. PASSIVE never waits for the request path's connection: it copies the
 * frames committed so far and returns; the writer restarts the WAL once all are copied.
 */
import { Database } from 'bun:sqlite'

declare const self: Worker

let db: Database | undefined
let timer: ReturnType<typeof setInterval> | undefined
let intervalMs = 100

/** One PASSIVE checkpoint; `type` tells the server whether it was the periodic one or one it asked for. */
function checkpoint(type: 'checkpoint' | 'done'): void {
  if (!db) return
  const t0 = performance.now()
  try {
    const r = db.query<{ busy: number; log: number; checkpointed: number }, []>('PRAGMA wal_checkpoint(PASSIVE)').get()!
    if (r.log > 0 || type === 'done')
      postMessage({ type, ms: performance.now() - t0, log: r.log, checkpointed: r.checkpointed })
  } catch (err) {
    postMessage({ type: 'error', error: String(err) })
  }
}
const tick = () => checkpoint('checkpoint')

self.onmessage = (
  e: MessageEvent<
    | { type: 'start'; file: string; intervalMs: number }
    | { type: 'now' }
    | { type: 'pause' }
    | { type: 'resume' }
    | { type: 'stop' }
  >,
) => {
  const m = e.data
  if (m.type === 'now') checkpoint('done')
  else if (m.type === 'start') {
    db = new Database(m.file, { readwrite: true })
    db.exec('PRAGMA busy_timeout = 5000')
    intervalMs = m.intervalMs
    timer = setInterval(tick, intervalMs)
    postMessage({ type: 'started' })
  } else if (m.type === 'pause') {
    clearInterval(timer)
    timer = undefined
  } else if (m.type === 'resume') {
    if (db && timer === undefined) timer = setInterval(tick, intervalMs)
  } else {
    clearInterval(timer)
    db?.close()
    db = undefined
    postMessage({ type: 'stopped' })
  }
}
