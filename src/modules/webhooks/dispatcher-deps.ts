/** What the dispatcher is built with (deps.ts gives it; tests substitute DNS, a CA, the jitter). */
import type { Database } from 'bun:sqlite'
import type { Config } from '../../config'
import type { Db } from '../../db/client'
import type { Logger } from '../../lib/log'
import type { SecretBox } from '../../lib/secret-box'
import type { Lookup } from '../../lib/ssrf'
import type { Clock } from '../../lib/time'

export interface DispatcherDeps {
  db: Db
  config: Config
  clock: Clock
  log: Logger
  secretBox: SecretBox
  /** DNS for the send-time SSRF check, whose answer the send connects to; tests substitute one. */
  lookup?: Lookup
  /** Extra CA certificates (PEM) to trust for https receivers: tests with a self-signed one. */
  ca?: string
  /**
   * The process's CPU time in ms, read by the pressure probe (governor.ts). A test on a shared
   * machine substitutes one, as the machine may give its saturated loop a fraction of a core.
   */
  cpuMs?: () => number
  /** Jitter of the retry schedule; tests substitute a fixed source. */
  random?: () => number
  /**
   * When `db` is the request path's own connection: runs each tick's transaction at NORMAL (no
   * fsync of its own; the next synced commit covers it too) and restores the level after
   * (WalSync.relaxed). Sharing the connection matters: a commit on another connection makes
   * SQLite drop this connection's page cache (and bumps data_version, which clears the
   * StoreCache), so a separate dispatcher connection made every order and every delivery
   * re-read its pages.
   */
  relaxed?: <T>(fn: () => T) => T
  /** Runs inside the transaction that disabled an endpoint (deps.ts: the owners' push). */
  onDisabledTx?: (client: Database, webhookId: string, now: number) => void
}
