/**
 * Shared pieces of the benchmarks (see bench/run.ts for how to run them):
 *
 * - `startServer(opts)`: the real server (`bun src/index.ts`) as a child process on a temp
 *   DATA_DIR and random free ports, with extra env (e.g. raised rate limits), pinned to a CPU
 *   with `taskset` when the machine has one to spare. Resolves once the server logs
 *   `{"msg":"listening","url":...}` on stderr.
 * - `startBareServer(opts)`: a bare `Bun.serve` over the same TLS cert answering every request
 *   with fixed bytes (bench/bare-server.ts), the yardstick the real server is compared to.
 * - `seed(dataDir, opts)`: a store, an all-scopes key and products with variants, written with
 *   the services themselves (same migrations, same validation) before the server starts.
 * - `load(opts)`: `wrk --latency` (Lua script for method/headers/body), or a Bun keep-alive load
 *   generator when wrk is missing (`apt-get install -y wrk` for the real thing); parsed into
 *   requests/s and p50/p90/p99 latency.
 * - `printTable(rows)`, `fmt*` helpers, and `cpuPlan()` saying which CPU runs what.
 *
 * Only the child processes started here are ever stopped (by pid), also on Ctrl-C of the bench.
 */
export * from './root'
export * from './types'
export * from './processes'
export * from './servers'
export * from './seed'
export * from './load'
export * from './format'
export * from './percentile'
export * from './panel'
export * from './panel-fill'
export * from './query-plans'
export * from './lighthouse'
export * from './checkout-script'
export * from './standalone'
