/**
 * Store isolation generated from tests/helpers/protected-routes.ts: tests/resilience/isolation.ts.
 */
import { test } from 'bun:test'
import { runIsolation } from './isolation'
import { expectClean } from './expect'

test("each route on another store's record → 403 without its data; no list shows another store's records", async () => {
  const r = await runIsolation()
  expectClean(r)
}, 30_000)
