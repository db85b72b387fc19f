/**
 * The admin CLI refuses what it doesn't understand:
 * unknown commands and unknown or misspelt flags exit 2 with usage and a "did you mean", nothing
 * is written; --help/-h works everywhere; human output names the database (stderr), lists are
 * aligned tables and a new key says it is shown once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { runAdmin } from '../../src/cli/admin'
import { closest } from '../../src/cli/args'
import { COMMANDS } from '../../src/cli/commands'
import { tempDir } from '../helpers/app'
import { ROOT } from '../helpers/server'

let dir: string
beforeAll(() => {
  dir = tempDir('sf-cli-strict-')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Human mode: exit code, stdout and stderr as text. */
function human(...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = runAdmin(
    argv,
    (s) => out.push(s),
    { DATA_DIR: dir },
    (s) => err.push(s),
  )
  return { code, stdout: out.join('\n'), stderr: err.join('') }
}
function json(...argv: string[]) {
  const out: string[] = []
  const code = runAdmin(
    [...argv, '--json'],
    (s) => out.push(s),
    { DATA_DIR: dir },
    () => {},
  )
  expect(out).toHaveLength(1)
  return { code, body: JSON.parse(out[0]!) }
}
const storeCount = () => json('store:list').body.data.length

describe('refusals: exit 2, usage, did you mean, nothing written', () => {
  test('a misspelt flag (--pln) is refused and names --plan; no store is made', () => {
    const r = human('store:create', '--name', 'Typo', '--pln', 'pro')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("unknown option '--pln'")
    expect(r.stderr).toContain("did you mean '--plan'")
    expect(r.stderr).toContain('Usage: bun run admin store:create --name N')
    expect(storeCount()).toBe(0)
  })

  test('--expire (a prefix of --expires-at) is refused with the hint; no key is made', () => {
    json('store:create', '--name', 'Keys Shop')
    const r = json('key:create', '--store', 'keys-shop', '--scopes', 'all', '--expire', '2030-12-01')
    expect(r.code).toBe(2)
    expect(r.body).toMatchObject({ code: 'USAGE', error: expect.stringContaining("did you mean '--expires-at'") })
    expect(json('key:list', '--store', 'keys-shop').body.data).toHaveLength(0)
  })

  test('an unknown command suggests the close one and prints the command list', () => {
    const r = human('store:lst')
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("unknown command 'store:lst' (did you mean 'store:list'?)")
    expect(r.stderr).toContain('Commands:')
    expect(json('frobnicate').body.error).not.toContain('did you mean')
  })

  test('--plan is validated before anything is written', () => {
    const before = storeCount()
    const r = json('store:create', '--name', 'Plat', '--plan', 'platinum')
    expect(r.code).toBe(2)
    expect(r.body.error).toContain('--plan must be one of free, pro, lifetime')
    expect(storeCount()).toBe(before)
  })

  test('--expires-at in the past → exit 2; in the future → a key', () => {
    const past = json('key:create', '--store', 'keys-shop', '--scopes', 'all', '--expires-at', '2020-01-01')
    expect(past.code).toBe(2)
    expect(past.body.error).toContain('in the past')
    expect(json('key:list', '--store', 'keys-shop').body.data).toHaveLength(0)
    expect(json('key:create', '--store', 'keys-shop', '--scopes', 'all', '--expires-at', '2999-01-01').code).toBe(0)
  })

  const cases: [string, string[], string][] = [
    ['a flag without its value', ['store:create', '--name'], '--name needs a value'],
    ['a flag followed by another flag', ['store:create', '--name', '--plan', 'pro'], '--name needs a value'],
    ['an empty value', ['store:create', '--name='], '--name needs a value'],
    ['a value on a boolean flag', ['store:list', '--json=yes'], '--json takes no value'],
    ['a stray positional', ['store:list', 'extra'], "unexpected argument 'extra'"],
    ['one positional too many', ['store:plan', 'keys-shop', 'pro', 'now'], "unexpected argument 'now'"],
    ['a flag another command has', ['store:list', '--store', 'x'], "unknown option '--store'"],
    ['an unknown short flag', ['store:list', '-x'], "unknown option '-x'"],
  ]
  for (const [name, argv, message] of cases) {
    test(`${name} → exit 2: ${message}`, () => {
      const before = storeCount()
      const r = human(...argv)
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(message)
      expect(r.stdout).toBe('')
      expect(storeCount()).toBe(before)
    })
  }

  test('a negative number is the value of the option before it, not a flag', () => {
    const r = json('store:create', '--name', '-5')
    expect(r.code).toBe(0)
    expect(r.body.name).toBe('-5')
    expect(human('store:list', '-5').stderr).toContain("unknown option '-5'")
  })

  test('closest: near misses and prefixes match, unrelated words do not', () => {
    const flags = ['name', 'slug', 'plan', 'currency', 'whatsapp', 'json', 'help']
    expect(closest('pln', flags)).toBe('plan')
    expect(closest('curency', flags)).toBe('currency')
    expect(closest('whatsap', flags)).toBe('whatsapp')
    expect(closest('zzz', flags)).toBeUndefined()
    expect(closest('expire', ['expires-at', 'store'])).toBe('expires-at')
  })
})

describe('--help and -h', () => {
  test('top level: help, --help, -h and no command print every command, exit 0', () => {
    for (const argv of [['help'], ['--help'], ['-h'], []]) {
      const r = human(...argv)
      expect(r.code).toBe(0)
      for (const name of Object.keys(COMMANDS)) expect(r.stdout).toContain(name)
    }
  })

  for (const [name, cmd] of Object.entries(COMMANDS)) {
    test(`${name} --help / -h: usage with every option, exit 0, nothing run`, () => {
      for (const flag of ['--help', '-h']) {
        const r = human(name, flag)
        expect(r.code).toBe(0)
        expect(r.stdout).toContain(`Usage: bun run admin ${name}`)
        for (const opt of Object.keys(cmd.options ?? {})) expect(r.stdout).toContain(`--${opt}`)
        expect(r.stderr).toBe('')
      }
    })
  }
})

describe('human output', () => {
  test('names the database it acts on, on stderr', () => {
    const r = human('store:list')
    expect(r.code).toBe(0)
    expect(r.stderr).toContain(`database: ${path.join(dir, 'storefront.db')}`)
    expect(r.stdout).not.toContain('database:')
  })

  test('a list is an aligned table: a header, and every column starts at the same offset on every line', () => {
    json('store:create', '--name', 'A Much Longer Store Name', '--plan', 'pro')
    const lines = human('store:list').stdout.split('\n')
    expect(lines[0]).toMatch(/^id\s+slug\s+name\s+plan\s+currency\s+status/)
    expect(lines.length).toBe(storeCount() + 1)
    const header = ['slug', 'name', 'plan', 'currency', 'status']
    for (const line of lines.slice(1)) {
      // Each column begins with a non-space right under its header and a space before it.
      for (const h of header) {
        const i = lines[0]!.indexOf(h)
        expect(line[i]).not.toBe(' ')
        expect(line[i - 1]).toBe(' ')
      }
    }
  })

  test('a new key: the secret, and a note that it is shown once', () => {
    const r = human('key:create', '--store', 'keys-shop', '--scopes', 'products:read')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^key\s+sfk_[0-9A-Za-z]{33}$/m)
    expect(r.stdout).toMatch(/^scopes\s+products:read$/m)
    expect(r.stderr).toContain('shown once')
    expect(human('key:list', '--store', 'keys-shop').stderr).not.toContain('shown once')
  })
})

test('as a process: exit codes 0 for --help, 2 for a typo', () => {
  const run = (...args: string[]) =>
    Bun.spawnSync(['bun', 'run', '--silent', 'admin', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dir } })
  const help = run('--help')
  expect(help.exitCode).toBe(0)
  expect(help.stdout.toString()).toContain('store:create')
  const typo = run('store:create', '--name', 'X', '--pln', 'pro')
  expect(typo.exitCode).toBe(2)
  expect(typo.stderr.toString()).toContain("did you mean '--plan'")
})
