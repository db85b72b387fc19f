/**
 * Child processes and temp folders started here, stopped here by pid only (also on Ctrl-C); CPU pinning and CPU time.
 */
import { spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import path from 'node:path'

export const children = new Set<ChildProcess>()
export const tempDirs = new Set<string>()

export function killChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (child.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(child.pid, signal)
    } catch {
      /* already gone */
    }
  }
}

/** Stops every child this process started and removes the temp dirs. */
export function cleanupAll(): void {
  for (const c of children) killChild(c, 'SIGKILL')
  children.clear()
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true })
  tempDirs.clear()
}

let signalsHooked = false
export function hookSignals(): void {
  if (signalsHooked) return
  signalsHooked = true
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      cleanupAll()
      process.exit(130)
    })
  }
  process.on('exit', () => cleanupAll())
}

export function tempDir(prefix = 'sf-bench-'): string {
  const d = mkdtempSync(path.join(tmpdir(), prefix))
  tempDirs.add(d)
  return d
}

export interface CpuPlan {
  /** taskset prefix for the server, e.g. ['taskset', '-c', '0'], or [] when not pinning. */
  server: string[]
  load: string[]
  description: string
}

let cachedPlan: CpuPlan | undefined
let wantPriority = false
/**
 * `--priority`: run the servers and the load generator at nice -10, so other work on a shared
 * machine (builds, test runs) disturbs the figures less. Needs root or CAP_SYS_NICE.
 */
export function setPriority(on: boolean): void {
  wantPriority = on
  cachedPlan = undefined
}

/** 2+ CPUs and taskset: server on cpu 0, load generator on cpu 1. Otherwise unpinned. */
export function cpuPlan(): CpuPlan {
  if (cachedPlan) return cachedPlan
  const n = cpus().length
  const hasTaskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0
  const nice = wantPriority && spawnSync('nice', ['-n', '-10', 'true']).status === 0 ? ['nice', '-n', '-10'] : []
  const prio = nice.length ? ', nice -10' : wantPriority ? ', --priority ignored: nice -10 not permitted' : ''
  if (n >= 2 && hasTaskset) {
    cachedPlan = {
      server: [...nice, 'taskset', '-c', '0'],
      load: [...nice, 'taskset', '-c', '1'],
      description: `server pinned to cpu 0, load generator to cpu 1 (taskset; ${n} CPUs${prio})`,
    }
  } else {
    cachedPlan = {
      server: nice,
      load: nice,
      description:
        `not pinned (${n} CPU${n === 1 ? '' : 's'}${hasTaskset ? '' : ', no taskset'}${prio}): ` +
        'server and load share CPUs, figures are lower',
    }
  }
  return cachedPlan
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux); NaN elsewhere.
 * CPU per request is steadier than req/s when the machine is shared: waiting for a CPU costs
 * wall time, not CPU time.
 */
export function cpuTimeMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields[0] is field 3 (state); utime is field 14, stime field 15.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK
  } catch {
    return NaN
  }
}
export const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100
