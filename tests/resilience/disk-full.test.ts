/**
 * Disk full, for real: DATA_DIR on an 8 MiB tmpfs filled up with a file (tests/resilience/disk-full.ts
 * has the checks: 503 + Retry-After, /health degraded, one log line per distinct error, reads
 * working, recovery without restart, every acknowledged order intact).
 *
 * Needs root to mount the tmpfs; without it the test says so and is skipped, not passed silently.
 */
import { test } from 'bun:test'
import { canMountTmpfs, runDiskFull } from './disk-full'
import { expectClean } from './expect'

test.skipIf(!canMountTmpfs())(
  'disk full on a real tmpfs: 503s, degraded health, quiet log, reads work, recovery, nothing lost',
  async () => {
    const r = await runDiskFull()
    expectClean(r)
    console.log(`disk full: ${r.notes.join('; ')}`)
  },
  60_000,
)

if (!canMountTmpfs())
  test('disk full (needs root to mount a tmpfs)', () => console.warn('skipped: not root, cannot mount a tmpfs'))
