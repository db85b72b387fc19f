/**
 * `bun bench/signin.ts [rounds]` — what one password sign-in costs here: argon2id (Bun.password's
 * defaults) hash and verify time per call, its parameters as stored in the PHC string, two at once
 * (PASSWORD_WORK_PARALLEL), and the bound the throttle puts on online guessing. Standalone (not
 * in `bun run bench`: it measures CPU and memory per hash, not a server under load).
 */
import { PASSWORD_WORK_PARALLEL, PER_EMAIL_TIERS, PER_IP } from '../src/modules/people'

const rounds = Number(process.argv[2] ?? 10)
const password = 'correct horse battery staple'

const hash = await Bun.password.hash(password, { algorithm: 'argon2id' })
const params = /\$argon2id\$v=\d+\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash)!

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

const hashMs = await time(() => Bun.password.hash(password, { algorithm: 'argon2id' }))
const verifyMs = await time(() => Bun.password.verify(password, hash, 'argon2id'))
const pairMs = await time(() =>
  Promise.all(Array.from({ length: PASSWORD_WORK_PARALLEL }, () => Bun.password.verify(password, hash, 'argon2id'))),
)
const rssBefore = process.memoryUsage().rss

const perEmailDay = PER_EMAIL_TIERS.at(-1)!.limit
const perEmailHour = Math.min(PER_EMAIL_TIERS[1].limit, PER_EMAIL_TIERS[0].limit * 4)
const rows: [string, string][] = [
  ['argon2id parameters', `m=${params[1]} KiB, t=${params[2]}, p=${params[3]}`],
  [
    `hash, median of ${rounds}`,
    `${median(hashMs).toFixed(1)} ms (min ${hashMs[0]!.toFixed(1)}, max ${hashMs.at(-1)!.toFixed(1)})`,
  ],
  ['verify, median', `${median(verifyMs).toFixed(1)} ms`],
  [`${PASSWORD_WORK_PARALLEL} verifies at once, median`, `${median(pairMs).toFixed(1)} ms`],
  ['sign-ins per second per core (verify bound)', `${(1000 / median(verifyMs)).toFixed(1)}`],
  ['RSS after', `${(rssBefore / 1048576).toFixed(0)} MiB`],
  [
    'guesses per e-mail from one IP',
    `≤ ${PER_EMAIL_TIERS[0].limit} / 15 min, ≤ ${perEmailHour} / hour, ≤ ${perEmailDay} / day`,
  ],
  ['guesses per IP over all e-mails', `≤ ${PER_IP.limit} / hour`],
]
const width = Math.max(...rows.map(([k]) => k.length))
console.log(`bench signin (Bun ${Bun.version}, ${navigator.hardwareConcurrency} cpus)`)
for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`)
