export interface BenchOpts {
  /** Smaller data and shorter runs (`--quick`). */
  quick: boolean
  /** Seconds per load run. */
  duration: number
  /** Concurrent connections. */
  connections: number
  /** Use the Bun load generator even when wrk is installed (`--bun-load`). */
  bunLoad: boolean
}

export type Row = Record<string, string | number>

export interface BenchResult {
  name: string
  /** Shown above the table. */
  title?: string
  rows: Row[]
  /** Free lines printed under the table (pinning, notes, targets). */
  notes?: string[]
  /** Whether the bench met its stated target (undefined: no target). */
  pass?: boolean
  /** One line for the combined summary. */
  summary?: string
}
