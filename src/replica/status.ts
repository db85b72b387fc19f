/**
 * What `GET /health` says about replication, as pure functions of what
 * the supervisor saw, so they can be tested without a process.
 *
 * The lag is read from Litestream's own output, not from the replica: its JSON log says when a
 * copy pass over the WAL starts, when a shipment starts and when the store has it ("wal segment
 * written"), for file and S3 replicas alike (an S3 listing on every health check would cost a
 * request each). replica/supervisor.ts turns those lines into `coveredUntil`.
 */
export type ReplicaState = 'off' | 'running' | 'restarting'

export interface ReplicaStatus {
  state: ReplicaState
  /**
   * Seconds of commits the replica may be missing: 0 when the WAL has not changed since the last
   * shipment's data was taken, otherwise the time since then. Null before the first shipment.
   */
  lagSeconds: number | null
}

export const REPLICA_OFF: ReplicaStatus = { state: 'off', lagSeconds: null }

/**
 * `coveredUntil`: the instant before which every WAL write is in the replica (the start of the
 * copy pass the last completed shipment sent). `walChangedAt`: the WAL file's mtime (undefined when
 * there is none: nothing uncheckpointed to lose).
 */
export function lagSeconds(
  coveredUntil: number | undefined,
  walChangedAt: number | undefined,
  now: number,
): number | null {
  if (coveredUntil === undefined) return null
  if (walChangedAt === undefined || walChangedAt <= coveredUntil) return 0
  return Math.max(0, Math.round((now - coveredUntil) / 100) / 10)
}

/** Wait before restart `attempt` (0-based): 1 s doubling to 30 s, so a crash loop costs little. */
export function restartDelayMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5))
}
