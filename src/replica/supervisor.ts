/**
 * Litestream as a supervised child of the service:
 * started with the server, restarted with backoff when it dies, stopped by its pid on shutdown
 * after the database is closed, so its final sync ships the last commits.
 *
 * While it runs it is the database's only checkpointer (the `up`/`down` hooks pause and resume
 * db/checkpointer.ts): it keeps a read transaction open so no WAL frame it has not copied can be
 * overwritten, and it checkpoints itself right after copying. A second checkpointer could only
 * make its checkpoints fail on the checkpoint lock and let the WAL grow.
 */
import type { Subprocess } from 'bun'
import { statSync } from 'node:fs'
import path from 'node:path'
import { DB_FILE } from '../backup/snapshot'
import type { Logger } from '../lib/log'
import { LogOnce } from '../lib/log-once'
import { systemClock } from '../lib/time'
import { litestreamBin, litestreamEnv, withConfig, writeLitestreamConfig, type ReplicaTarget } from './litestream'
import { clearLitestreamPid, leftoverLitestream, stopLeftover, writeLitestreamPid } from './pid'
import { lagSeconds, REPLICA_OFF, restartDelayMs, type ReplicaState, type ReplicaStatus } from './status'

export interface ReplicaHooks {
  /** Litestream runs: it checkpoints from now on. */
  up(): void
  /** It died: the service checkpoints again, so the WAL does not grow while it is away. */
  down(): void
}

export interface Replica {
  start(hooks: ReplicaHooks): Promise<void>
  stop(): Promise<void>
  status(): ReplicaStatus
  /** The running Litestream's pid (tests stop exactly it). */
  readonly pid: number | undefined
}

/** REPLICA_URL unset. */
export const NO_REPLICA: Replica = {
  start: async () => {},
  stop: async () => {},
  status: () => REPLICA_OFF,
  pid: undefined,
}

/** A run that lasted this long resets the backoff: it was not a crash loop. */
const STABLE_MS = 60_000
/** SIGTERM makes Litestream ship what it has not yet; past this it is killed. */
const STOP_GRACE_MS = 10_000

interface LitestreamLine {
  time?: string
  level?: string
  msg?: string
  error?: string
  reason?: string
}

export class ReplicaSupervisor implements Replica {
  private proc: Subprocess<'ignore', 'pipe', 'pipe'> | undefined
  private state: ReplicaState = 'off'
  private hooks: ReplicaHooks = { up() {}, down() {} }
  private attempt = 0
  private startedAt = 0
  private timer: ReturnType<typeof setTimeout> | undefined
  private stopping = false
  private stderrTail = ''
  private passStartedAt: number | undefined
  private shipCovers: number | undefined
  private coveredUntil: number | undefined
  private readonly errors: LogOnce
  private readonly walFile: string
  private readonly killOnExit = () => this.proc?.kill('SIGTERM')

  constructor(
    private target: ReplicaTarget,
    private log: Logger,
  ) {
    this.errors = new LogOnce(log, systemClock)
    this.walFile = path.join(target.dataDir, `${DB_FILE}-wal`)
  }

  get pid(): number | undefined {
    return this.proc?.pid
  }

  async start(hooks: ReplicaHooks): Promise<void> {
    this.hooks = hooks
    this.stopping = false
    const leftover = leftoverLitestream(this.target.dataDir)
    if (leftover !== undefined) {
      this.log.warn('stopping the Litestream a previous run left behind', { pid: leftover })
      await stopLeftover(leftover, this.target.dataDir)
    }
    // An exit that skips stop() (an uncaught error) still asks Litestream to ship and leave;
    // only SIGKILL of the service leaves it running, and the next start ends it above.
    process.on('exit', this.killOnExit)
    this.spawn()
  }

  status(): ReplicaStatus {
    if (this.state === 'off') return REPLICA_OFF
    let walChangedAt: number | undefined
    try {
      walChangedAt = statSync(this.walFile).mtimeMs
    } catch {
      walChangedAt = undefined
    }
    return { state: this.state, lagSeconds: lagSeconds(this.coveredUntil, walChangedAt, Date.now()) }
  }

  async stop(): Promise<void> {
    this.stopping = true
    clearTimeout(this.timer)
    process.off('exit', this.killOnExit)
    const proc = this.proc
    if (proc) {
      proc.kill('SIGTERM')
      let timer: ReturnType<typeof setTimeout> | undefined
      const exited = await Promise.race([
        proc.exited.then(() => true),
        new Promise<false>((r) => (timer = setTimeout(() => r(false), STOP_GRACE_MS))),
      ])
      clearTimeout(timer)
      if (!exited) {
        this.log.warn('Litestream did not stop in time; killed', { pid: proc.pid })
        proc.kill('SIGKILL')
        await proc.exited
      }
    }
    this.state = 'off'
  }

  private spawn(): void {
    if (this.stopping) return
    let proc: Subprocess<'ignore', 'pipe', 'pipe'>
    try {
      const config = writeLitestreamConfig(this.target.dataDir, this.target)
      proc = Bun.spawn([litestreamBin(), ...withConfig('replicate', config)], {
        env: litestreamEnv(),
        stdin: 'ignore',
        stdout: 'pipe',
        stderr: 'pipe',
      })
    } catch (err) {
      this.retry(`cannot start Litestream: ${(err as Error).message}`)
      return
    }
    this.proc = proc
    this.startedAt = Date.now()
    this.stderrTail = ''
    writeLitestreamPid(this.target.dataDir, proc.pid)
    this.state = 'running'
    this.hooks.up()
    this.log.info('replicating', { url: this.target.url, pid: proc.pid })
    void this.readLines(proc.stdout, (line) => this.onLine(line))
    void this.readLines(proc.stderr, (line) => (this.stderrTail = `${this.stderrTail + line}\n`.slice(-2000)))
    void proc.exited.then((code) => this.onExit(proc, code))
  }

  private onExit(proc: Subprocess, code: number | null): void {
    if (this.proc !== proc) return
    this.proc = undefined
    clearLitestreamPid(this.target.dataDir, proc.pid)
    if (this.stopping) return
    if (Date.now() - this.startedAt > STABLE_MS) this.attempt = 0
    this.retry(`Litestream exited with code ${code}`, this.stderrTail.trim().split('\n').slice(-3).join(' | '))
  }

  private retry(reason: string, detail?: string): void {
    this.state = 'restarting'
    this.hooks.down()
    const delayMs = restartDelayMs(this.attempt++)
    this.log.warn('replication stopped; restarting Litestream', { reason, detail, inMs: delayMs })
    this.timer = setTimeout(() => this.spawn(), delayMs)
  }

  /**
   * Litestream's JSON log. Each pass copying the WAL into its shadow WAL logs "sync" (debug) as it
   * starts; a shipment sends the shadow WAL as the last pass left it, so a shipment completed means
   * every WAL write before that pass began is in the replica. Warnings and errors go to our log,
   * once a minute each.
   */
  private onLine(raw: string): void {
    let line: LitestreamLine
    try {
      line = JSON.parse(raw) as LitestreamLine
    } catch {
      this.stderrTail = `${this.stderrTail + raw}\n`.slice(-2000)
      return
    }
    if (line.msg === 'sync') this.passStartedAt = lineTime(line)
    else if (line.msg === 'write wal segment' || line.msg === 'write snapshot') this.shipCovers = this.passStartedAt
    else if (line.msg === 'wal segment written' || line.msg === 'snapshot written')
      this.coveredUntil = this.shipCovers ?? this.coveredUntil
    else if (line.msg === 'sync: new generation')
      this.log.info('replica: new generation (a full snapshot is shipped)', { reason: line.reason })
    else if (line.level === 'ERROR' || line.level === 'WARN') {
      this.errors.at('warn', `litestream ${line.msg} ${line.error}`, 'litestream', {
        litestream: line.msg,
        error: line.error,
      })
    }
  }

  private async readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
    const decoder = new TextDecoder()
    let buf = ''
    for await (const chunk of stream) {
      buf += decoder.decode(chunk, { stream: true })
      let nl: number
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim()
        buf = buf.slice(nl + 1)
        if (line) onLine(line)
      }
    }
    if (buf.trim()) onLine(buf.trim())
  }
}

/** Litestream's timestamps carry nanoseconds; milliseconds are what Date and mtimes compare in. */
function lineTime(line: LitestreamLine): number {
  const ms = line.time ? Date.parse(line.time.replace(/(\.\d{3})\d+/, '$1')) : NaN
  return Number.isNaN(ms) ? Date.now() : ms
}
