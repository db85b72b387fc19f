/**
 * The p-th percentile (0–100) of ascending `sorted` values, nearest rank; NaN when there are
 * none. Every bench reporting latencies of its own (not wrk's) reads them through this one.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** The same over values in any order (sorted on a copy). */
export const percentileOf = (values: readonly number[], p: number): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    p,
  )
