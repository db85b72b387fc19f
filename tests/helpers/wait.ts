/**
 * Waiting for a condition instead of a fixed time: polls every few milliseconds and fails with
 * what it waited for once the deadline passes. The deadline is a bound for a stuck run, never a
 * timing assertion.
 */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(5)
  }
}
