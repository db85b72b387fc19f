/**
 * `bun run admin <command> [flags]`. With --json, prints exactly one JSON object on stdout
 * (errors too, as `{ "error", "code" }`) and exits non-zero on failure: 2 for a usage or
 * configuration mistake (nothing was done), 1 when the command itself failed.
 * Human output names the database it acts on (on stderr, so stdout stays the result).
 */
import path from 'node:path'
import { ConfigError, loadConfig } from '../config'
import { closeDb, openDb, type Db } from '../db/client'
import { AppError } from '../lib/errors'
import { BackupError } from '../backup/snapshot'
import { systemClock, type Clock } from '../lib/time'
import { didYouMean, GLOBAL_OPTIONS, parseCommandArgs, UsageError } from './args'
import { COMMANDS, usageLine, type CliEnv, type Command } from './commands'
import { formatHuman } from './format'

const PROGRAM = 'bun run admin'

function topHelp(): string {
  const names = Object.keys(COMMANDS)
  const width = Math.max(...names.map((n) => n.length))
  return [
    `Usage: ${PROGRAM} <command> [options] [--json]`,
    '',
    'Commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n]!.summary}`),
    '',
    `Run '${PROGRAM} <command> --help' for a command's options. Settings come from the environment (DATA_DIR, …).`,
  ].join('\n')
}

function commandHelp(name: string, c: Command): string {
  const opts = Object.entries({ ...c.options, ...GLOBAL_OPTIONS })
  const left = opts.map(([k, o]) => `${o.short ? `-${o.short}, ` : ''}--${k}${o.value ? ` ${o.value}` : ''}`)
  const width = Math.max(...left.map((l) => l.length))
  return [
    `Usage: ${PROGRAM} ${usageLine(name, c)}`,
    '',
    `${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.`,
    '',
    'Options:',
    ...opts.map(([, o], i) => `  ${left[i]!.padEnd(width)}  ${o.help}`),
  ].join('\n')
}

export interface AdminOptions {
  /** The clock key expiry and billing are judged by (tests pass the app's). */
  clock?: Clock
}

/** `env` is the environment the settings come from (tests pass their own DATA_DIR). */
export function runAdmin(
  argv: string[],
  out: (s: string) => void = (s) => process.stdout.write(`${s}\n`),
  env: Record<string, string | undefined> = process.env,
  err: (s: string) => void = (s) => process.stderr.write(s),
  opts: AdminOptions = {},
): number {
  // Whatever the CLI writes (snapshots, a new database) is owner-only, like the service's files.
  process.umask(0o077)
  const json = argv.includes('--json')
  const [name = '--help', ...rest] = argv
  const fail = (code: string, message: string, extra: Record<string, unknown> = {}) => {
    if (json) out(JSON.stringify({ error: message, code, ...extra }))
    else err(`error: ${message}\n`)
  }

  if (name === 'help' || name === '--help' || name === '-h' || (name === '--json' && rest.length === 0)) {
    out(json ? JSON.stringify({ usage: topHelp() }) : topHelp())
    return 0
  }
  const cmd = COMMANDS[name]
  if (!cmd) {
    const message = `unknown command '${name}'${didYouMean(name, Object.keys(COMMANDS))}`
    fail('USAGE', message)
    if (!json) err(`\n${topHelp()}\n`)
    return 2
  }

  let parsed
  try {
    parsed = parseCommandArgs(rest, cmd.options ?? {}, cmd.args?.length ?? 0)
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    fail('USAGE', `${e.message}. Usage: ${PROGRAM} ${usageLine(name, cmd)}`)
    return 2
  }
  if (parsed.flags.help) {
    out(json ? JSON.stringify({ usage: commandHelp(name, cmd) }) : commandHelp(name, cmd))
    return 0
  }
  delete parsed.flags.json

  let db: Db | undefined
  try {
    const config = loadConfig(env)
    if (!json) err(`database: ${path.join(config.dataDir, 'storefront.db')}\n`)
    const cliEnv: CliEnv = {
      get db() {
        return (db ??= openDb({ dataDir: config.dataDir, synchronous: config.dbSynchronous }))
      },
      clock: opts.clock ?? systemClock,
      config,
    }
    const result = cmd.run(cliEnv, parsed.positional, parsed.flags)
    out(json ? JSON.stringify(result) : formatHuman(result))
    if (!json && cmd.note) err(`\n${cmd.note}\n`)
    return 0
  } catch (e) {
    if (e instanceof UsageError) fail('USAGE', `${e.message}. Usage: ${PROGRAM} ${usageLine(name, cmd)}`)
    else if (e instanceof AppError) fail(e.code, e.message, e.details ? { details: e.details } : {})
    else if (e instanceof ConfigError) fail('CONFIG', e.message)
    else if (e instanceof BackupError) fail(e.code, e.message)
    else fail('ERROR', (e as Error).message ?? String(e))
    return e instanceof UsageError || e instanceof ConfigError ? 2 : 1
  } finally {
    if (db) closeDb(db)
  }
}

if (import.meta.main) process.exit(runAdmin(process.argv.slice(2)))
