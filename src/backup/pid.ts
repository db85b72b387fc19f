/**
 * DATA_DIR/storefront.pid marks a data directory a running service holds, so `admin restore`
 * can refuse to swap the database under it. SQLite can't tell: an idle WAL connection holds no
 * lock another process can see. A pid file left by a crash names a dead process and is ignored.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import path from 'node:path'

export const PID_FILE = 'storefront.pid'

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it exists but belongs to another user — still running.
    return (err as { code?: string }).code === 'EPERM'
  }
}

/** The pid of a live process holding `dataDir`, if any. */
export function runningPid(dataDir: string): number | undefined {
  let pid: number
  try {
    pid = Number(readFileSync(path.join(dataDir, PID_FILE), 'utf8').trim())
  } catch {
    return undefined
  }
  return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined
}

const held = new Set<string>()
const release = (file: string) => {
  try {
    if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file)
  } catch {
    // Already gone.
  }
}

/**
 * Writes this process's pid. It is removed when the process exits, not when the server stops:
 * the database stays open through the drain, and a restore must wait for that too.
 */
export function holdPidFile(dataDir: string): void {
  const file = path.join(dataDir, PID_FILE)
  const fd = openSync(file, 'w', 0o600)
  writeSync(fd, `${process.pid}\n`)
  closeSync(fd)
  if (held.size === 0) process.once('exit', () => held.forEach(release))
  held.add(file)
}
