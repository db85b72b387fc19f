/**
 * Strict argument parsing for the admin CLI on `node:util` `parseArgs`: an option a command does
 * not declare, a missing value or a stray positional is a UsageError (exit 2), never a silent
 * default — `--pln pro` used to make a free store and `--expire …` a key that never expires.
 */
import { parseArgs as parseNodeArgs } from 'node:util'

export class UsageError extends Error {}

export interface OptionSpec {
  type: 'string' | 'boolean'
  /** Placeholder shown in the usage line, e.g. `ISO` in `--expires-at ISO`. */
  value?: string
  help: string
  short?: string
}
export type Options = Record<string, OptionSpec>
export type Flags = Record<string, string | boolean | undefined>

/** Options every command takes. */
export const GLOBAL_OPTIONS: Options = {
  json: { type: 'boolean', help: 'print exactly one JSON object on stdout (errors too)' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = cur
    }
  }
  return row[b.length]!
}

/**
 * The candidate a typo most likely meant: a small edit away (a third of the word, at least 2),
 * or the start of a longer name (`--expire` → `--expires-at`). Undefined when nothing is close.
 */
export function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined
  let bestD = Infinity
  for (const c of candidates) {
    const d = c.startsWith(word) && word.length >= 3 ? 0.5 : distance(word, c)
    if (d < bestD) [best, bestD] = [c, d]
  }
  return bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined
}

export const didYouMean = (word: string, candidates: string[], prefix = ''): string => {
  const hit = closest(word, candidates)
  return hit ? ` (did you mean '${prefix}${hit}'?)` : ''
}

/**
 * Parses one command's arguments (the command name already removed). `maxPositionals` bounds the
 * positionals; more is a UsageError too.
 */
export function parseCommandArgs(
  argv: string[],
  options: Options,
  maxPositionals: number,
): { positional: string[]; flags: Flags } {
  const all = { ...options, ...GLOBAL_OPTIONS }
  // A negative number after a value-taking option is its value (`--amount -3`), not a flag:
  // the service then refuses it with its own message, as for any other bad amount.
  const args: string[] = []
  for (const a of argv) {
    const prev = args[args.length - 1]
    if (/^-\d/.test(a) && prev?.startsWith('--') && !prev.includes('=') && all[prev.slice(2)]?.type === 'string')
      args[args.length - 1] = `${prev}=${a}`
    else args.push(a)
  }
  let parsed
  try {
    parsed = parseNodeArgs({
      args,
      options: Object.fromEntries(
        Object.entries(all).map(([name, o]) => [name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]),
      ),
      strict: true,
      allowPositionals: true,
    })
  } catch (e) {
    const err = e as Error & { code?: string }
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = /Unknown option '([^']+)'/.exec(err.message)?.[1] ?? '?'
      throw new UsageError(
        `unknown option '${flag}'${didYouMean(flag.replace(/^-+/, '').replace(/=.*$/, ''), Object.keys(all), '--')}`,
      )
    }
    if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const flag = /Option '(--[\w-]+)/.exec(err.message)?.[1] ?? 'an option'
      throw new UsageError(all[flag.slice(2)]?.type === 'boolean' ? `${flag} takes no value` : `${flag} needs a value`)
    }
    throw new UsageError(err.message)
  }
  const flags = parsed.values as Flags
  for (const [name, v] of Object.entries(flags)) {
    if (typeof v === 'string' && v === '') throw new UsageError(`--${name} needs a value`)
  }
  if (!flags.help && parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument '${parsed.positionals[maxPositionals]}'`)
  }
  return { positional: parsed.positionals, flags }
}
