import { expect } from 'bun:test'
import { summary, type CaseResult } from './lib'

/** Fails the test with every problem the case found. */
export function expectClean(r: CaseResult): void {
  if (r.failures > 0) throw new Error(summary(r))
  expect(r.failures).toBe(0)
  expect(r.tried).toBeGreaterThan(0)
}
