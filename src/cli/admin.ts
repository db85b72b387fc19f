/**
 * `bun run admin <command> [flags]`. With --json, prints exactly one JSON object on stdout
 * (errors too, as `{ "error", "code" }`) and exits non-zero on failure.
 */
import { ConfigError, loadConfig } from '../config'
import { openDb } from '../db/client'
import { AppError } from '../lib/errors'
import { systemClock } from '../lib/time'
import { parseArgs } from './args'
import { COMMANDS, UsageError } from './commands'

/** `env` is the environment the settings come from (tests pass their own DATA_DIR). */
export function runAdmin(
  argv: string[],
  out: (s: string) => void = (s) => process.stdout.write(s + '\n'),
  env: Record<string, string | undefined> = process.env,
  err: (s: string) => void = (s) => process.stderr.write(s),
): number {
  const { command, positional, flags } = parseArgs(argv)
  const json = flags.json === true
  delete flags.json
  const cmd = COMMANDS[command]
  if (!cmd) {
    const help = `Usage: bun run admin <command> [--json]\n\nCommands:\n${Object.values(COMMANDS).map((c) => `  ${c.usage}`).join('\n')}`
    if (json) out(JSON.stringify({ error: `Unknown command '${command}'`, code: 'USAGE' }))
    else out(command === 'help' ? help : `Unknown command '${command}'\n\n${help}`)
    return command === 'help' ? 0 : 2
  }
  let db
  try {
    const config = loadConfig(env)
    db = openDb({ dataDir: config.dataDir, synchronous: config.dbSynchronous })
    const result = cmd.run({ db, clock: systemClock }, positional, flags)
    out(json ? JSON.stringify(result) : human(result))
    return 0
  } catch (e) {
    const body =
      e instanceof UsageError
        ? { error: `${e.message}. Usage: ${cmd.usage}`, code: 'USAGE' }
        : e instanceof AppError
          ? { error: e.message, code: e.code, ...(e.details ? { details: e.details } : {}) }
          : e instanceof ConfigError
            ? { error: e.message, code: 'CONFIG' }
            : { error: (e as Error).message ?? String(e), code: 'ERROR' }
    if (json) out(JSON.stringify(body))
    else err(`error: ${body.error}\n`)
    return e instanceof UsageError || e instanceof ConfigError ? 2 : 1
  } finally {
    db?.$client.close()
  }
}

function human(result: Record<string, unknown>): string {
  if (Array.isArray(result.data)) return (result.data as Record<string, unknown>[]).map((r) => Object.entries(r).map(([k, v]) => `${k}=${v ?? ''}`).join('  ')).join('\n') || '(none)'
  return Object.entries(result).map(([k, v]) => `${k.padEnd(10)} ${Array.isArray(v) ? v.join(',') : (v ?? '')}`).join('\n')
}

if (import.meta.main) process.exit(runAdmin(process.argv.slice(2)))
