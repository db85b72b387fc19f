/**
 * DATA_DIR/litestream.pid names the Litestream the service runs. A service killed outright
 * (SIGKILL, OOM) leaves its Litestream running as an orphan: the next start stops that one before
 * starting its own (two on one database would fight over its shadow WAL), and `admin restore`
 * refuses while it runs. A pid counts only while /proc shows it is Litestream reading this
 * DATA_DIR's config, so a pid reused by another program is never signalled.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { CONFIG_FILE, PID_FILE } from './litestream'

/** True while `pid` is a live Litestream started with `dataDir`'s config (a zombie has no cmdline). */
export function isOurLitestream(pid: number, dataDir: string): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    return path.basename(argv[0] ?? '') === 'litestream' && argv.includes(path.join(dataDir, CONFIG_FILE))
  } catch {
    return false
  }
}

/** The Litestream still replicating `dataDir`, if the pid file names one. */
export function leftoverLitestream(dataDir: string): number | undefined {
  let pid: number
  try {
    pid = Number(readFileSync(path.join(dataDir, PID_FILE), 'utf8').trim())
  } catch {
    return undefined
  }
  return Number.isInteger(pid) && pid > 0 && isOurLitestream(pid, dataDir) ? pid : undefined
}

export function writeLitestreamPid(dataDir: string, pid: number): void {
  writeFileSync(path.join(dataDir, PID_FILE), `${pid}\n`, { mode: 0o600 })
}

/** Removes the pid file if it still names `pid` (a newer Litestream may have written its own). */
export function clearLitestreamPid(dataDir: string, pid: number): void {
  const file = path.join(dataDir, PID_FILE)
  try {
    if (readFileSync(file, 'utf8').trim() === String(pid)) rmSync(file)
  } catch {
    // Already gone.
  }
}

/** SIGTERM (its final sync), then SIGKILL after `graceMs`; by that pid only. */
export async function stopLeftover(pid: number, dataDir: string, graceMs = 10_000): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s)
    } catch {
      // Gone meanwhile.
    }
  }
  signal('SIGTERM')
  const until = Date.now() + graceMs
  while (isOurLitestream(pid, dataDir) && Date.now() < until) await Bun.sleep(20)
  if (isOurLitestream(pid, dataDir)) signal('SIGKILL')
}
