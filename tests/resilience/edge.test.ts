/** The public edge's abuse cases at reduced size (the full run: `bun run resilience --only edge`). */
import { expect, test } from 'bun:test'
import { runHoarding, runRestoreSymlink, runUploadExhaustion } from './edge'
import { summary } from './lib'

test('upload exhaustion: 6 × 2 MB from one store while another uploads', async () => {
  const r = await runUploadExhaustion({ uploads: 6, megabytes: 2, maxRssMb: 400 })
  expect(r.failures, summary(r)).toBe(0)
}, 60_000)

test('hoarding: oversized and split-line orders refused, no unit taken', async () => {
  const r = await runHoarding()
  expect(r.failures, summary(r)).toBe(0)
}, 30_000)

test('restore-symlink: tampered snapshots refused, planted links never served', async () => {
  const r = await runRestoreSymlink()
  expect(r.failures, summary(r)).toBe(0)
}, 30_000)
