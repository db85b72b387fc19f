/**
 * `bun run admin <command> [flags]`. With --json, prints exactly one JSON object on stdout
 * (errors too, as `{ "error", "code" }`) and exits non-zero on failure.
 */
import { loadConfig } from '../config'
import { openDb } from '../db/client'
import { AppError } from '../lib/errors'
import { systemClock } from '../lib/time'
import { parseArgs } from './args'
import { COMMANDS, UsageError } from './commands'

export function runAdmin(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s + '\n')): number {
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
    db = openDb({ dataDir: loadConfig().dataDir })
    const result = cmd.run({ db, clock: systemClock }, positional, flags)
    out(json ? JSON.stringify(result) : human(result))
    return 0
  } catch (err) {
    const body =
      err instanceof UsageError
        ? { error: `${err.message}. Usage: ${cmd.usage}`, code: 'USAGE' }
        : err instanceof AppError
          ? { error: err.message, code: err.code, ...(err.details ? { details: err.details } : {}) }
          : { error: (err as Error).message ?? String(err), code: 'ERROR' }
    if (json) out(JSON.stringify(body))
    else process.stderr.write(`error: ${body.error}\n`)
    return err instanceof UsageError ? 2 : 1
  } finally {
    db?.$client.close()
  }
}

function human(result: Record<string, unknown>): string {
  if (Array.isArray(result.data)) return (result.data as Record<string, unknown>[]).map((r) => Object.entries(r).map(([k, v]) => `${k}=${v ?? ''}`).join('  ')).join('\n') || '(none)'
  return Object.entries(result).map(([k, v]) => `${k.padEnd(10)} ${Array.isArray(v) ? v.join(',') : (v ?? '')}`).join('\n')
}

if (import.meta.main) process.exit(runAdmin(process.argv.slice(2)))
