/**
 * DATA_DIR/storefront.pid (`<pid> <hostname>`) marks a data directory a running service holds, so
 * `admin restore` can refuse to swap the database under it. SQLite can't tell: an idle WAL
 * connection holds no lock another process can see. A pid file left by a crash names a dead
 * process and is ignored; one written on another host (another container sharing the volume)
 * can't be checked and counts as held until the operator deletes it.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
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

/** Who appears to hold `dataDir` (e.g. "pid 123 on host web-1"), or undefined when nobody does. */
export function holder(dataDir: string): string | undefined {
  let text: string
  try {
    text = readFileSync(path.join(dataDir, PID_FILE), 'utf8').trim()
  } catch {
    return undefined
  }
  const [rawPid = '', host = hostname()] = text.split(/\s+/)
  const pid = Number(rawPid)
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  if (host !== hostname()) return `pid ${pid} on host ${host}`
  // Our own pid: a restarted container where this command is now pid 1, say.
  return pid !== process.pid && alive(pid) ? `pid ${pid}` : undefined
}

const held = new Set<string>()
const release = (file: string) => {
  try {
    if (readFileSync(file, 'utf8').trim() === `${process.pid} ${hostname()}`) rmSync(file)
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
  writeSync(fd, `${process.pid} ${hostname()}\n`)
  closeSync(fd)
  if (held.size === 0) process.once('exit', () => held.forEach(release))
  held.add(file)
}
