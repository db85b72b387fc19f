/**
 * `bun bench/signin.ts [rounds]` — what one password sign-in costs here: argon2id hash and verify
 * time per call at the service's cost (PASSWORD_HASHING) beside Bun's default (m=64 MiB, what
 * hashes were made at before docs/decisions/025) in the same run, two at once
 * (PASSWORD_WORK_PARALLEL), the RSS each setting leaves, and the bound the throttle puts on online
 * guessing. Standalone (not in `bun run bench`: it measures CPU and memory per hash, not a server
 * under load). On a shared machine compare the two rows of one run, not runs.
 */
import { readFileSync } from 'node:fs'
import { PASSWORD_HASHING, PASSWORD_WORK_PARALLEL, PER_EMAIL_TIERS, PER_IP } from '../src/modules/people'

const rounds = Number(process.argv[2] ?? 10)
const password = 'correct horse battery staple'
const settings = [
  ['Bun default', { algorithm: 'argon2id' }],
  ['service (PASSWORD_HASHING)', PASSWORD_HASHING],
] as const

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < rounds; i++) {
    const t = performance.now()
    await fn()
    out.push(performance.now() - t)
  }
  return out.sort((a, b) => a - b)
}
const median = (xs: number[]) => xs[Math.floor(xs.length / 2)]!
const hwm = () => Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) / 1024

console.log(
  `bench signin (Bun ${Bun.version}, ${navigator.hardwareConcurrency} cpus, ` +
    `load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
)
const rows: [string, string][] = []
// The cheaper setting first, so each peak (VmHWM) is what that setting adds, not the other's.
for (const [name, opts] of [...settings].reverse()) {
  const hash = await Bun.password.hash(password, opts)
  const params = /\$argon2id\$v=\d+\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash)!
  const hashMs = await time(() => Bun.password.hash(password, opts))
  const verifyMs = await time(() => Bun.password.verify(password, hash))
  const pairMs = await time(() =>
    Promise.all(Array.from({ length: PASSWORD_WORK_PARALLEL }, () => Bun.password.verify(password, hash))),
  )
  rows.push(
    [`${name}: parameters`, `m=${params[1]} KiB, t=${params[2]}, p=${params[3]}`],
    [
      `${name}: hash, median of ${rounds}`,
      `${median(hashMs).toFixed(1)} ms (min ${hashMs[0]!.toFixed(1)}, max ${hashMs.at(-1)!.toFixed(1)})`,
    ],
    [`${name}: verify, median`, `${median(verifyMs).toFixed(1)} ms`],
    [`${name}: ${PASSWORD_WORK_PARALLEL} verifies at once, median`, `${median(pairMs).toFixed(1)} ms`],
    [`${name}: peak RSS so far`, `${hwm().toFixed(0)} MiB`],
  )
}

const perEmailDay = PER_EMAIL_TIERS.at(-1)!.limit
const perEmailHour = Math.min(PER_EMAIL_TIERS[1].limit, PER_EMAIL_TIERS[0].limit * 4)
rows.push(
  [
    'guesses per e-mail from one IP',
    `≤ ${PER_EMAIL_TIERS[0].limit} / 15 min, ≤ ${perEmailHour} / hour, ≤ ${perEmailDay} / day`,
  ],
  ['guesses per IP over all e-mails', `≤ ${PER_IP.limit} / hour`],
)
const width = Math.max(...rows.map(([k]) => k.length))
for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`)
