/**
 * Every test's time limit: 20 s, so socket and migration tests on a loaded 2-core machine don't
 * fail on Bun's 5 s default. Bun 1.4 ignores `timeout` in bunfig.toml's [test] table (measured:
 * a 6 s test failed at 5 s with it set), so the limit is set here, in a preload.
 */
import { setDefaultTimeout } from 'bun:test'

setDefaultTimeout(20_000)
