/** What a CLI command is, apart from the list of commands (commands.ts and backup-commands.ts both define some). */
import type { Config } from '../config'
import type { Db } from '../db/client'
import type { Clock } from '../lib/time'
import type { Flags, Options } from './args'

export interface CliEnv {
  /** Opened on first use: `restore` must not hold the database it replaces. */
  readonly db: Db
  clock: Clock
  config: Config
}

export interface Command {
  summary: string
  /** Positionals in order; `[name]` is optional. */
  args?: string[]
  options?: Options
  run(env: CliEnv, positional: string[], flags: Flags): Record<string, unknown>
  /** A line printed after the human output (never in --json). */
  note?: string
}
