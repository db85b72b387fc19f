/**
 * Distributed sign-in flood: what a person signing in from a clean address gets while many other
 * addresses flood the sign-in form with wrong passwords. The real server (TRUST_PROXY=1, so each
 * request names its client address in X-Forwarded-For), an owner whose password has the
 * production argon2id cost, and in one run:
 *
 * - baseline: people sign in one after another, each from a clean address (one the server has
 *   not seen lately), nothing else running;
 * - flood: FLOOD_ADDRESSES addresses each keep one wrong guess in flight (each at a fresh e-mail,
 *   so the per-e-mail throttle never stops them: only the argon2id queue does); once it has run a
 *   few seconds, people sign in one after another again, each from a clean address.
 *
 * Per row: the clean sign-ins' outcomes (303 signed in, 429 refused) and latency, and what the
 * flood got (checked = 401, refused = 429). With `BENCH_BASE_DIR=<checkout>` the same two runs
 * are made against that revision's server too (e.g. the single-FIFO queue before the fair one).
 * `FLOOD_ADDRESSES=<n>` changes the number of flooding addresses.
 */
import {
  percentileOf,
  fmtInt,
  fmtMs,
  sleep,
  startServer,
  tempDir,
  type BenchOpts,
  type BenchResult,
  type Row,
  type ServerHandle,
} from './lib'

const PUBLIC = 'https://bench.example'
const EMAIL = 'owner@bench.example'
const PASSWORD = 'correct horse battery staple'

/** A store and its owner with a production-cost password hash, written before the server opens the DATA_DIR. */
async function seedOwner(dataDir: string): Promise<void> {
  const { testConfig } = await import('../src/config')
  const { createDeps, closeDeps } = await import('../src/deps')
  const { createOwner } = await import('../src/modules/people')
  const { createStore } = await import('../src/modules/platform-stores/service')
  const deps = createDeps(testConfig({ dataDir, logLevel: 'silent' }))
  try {
    const store = createStore({ ctx: deps, input: { name: 'Flood Bench', slug: 'flood-bench', plan: 'pro' } })
    const passwordHash = await Bun.password.hash(PASSWORD, { algorithm: 'argon2id' })
    createOwner({ ctx: deps, input: { storeId: store.id, email: EMAIL, name: 'Owner', passwordHash } })
  } finally {
    closeDeps(deps)
  }
}

function signIn(url: string, ip: string, email: string, password: string): Promise<number> {
  return fetch(`${url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ email, password }).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: PUBLIC,
      'x-forwarded-for': ip,
      'x-forwarded-proto': 'https',
    },
  }).then(
    async (r) => {
      await r.arrayBuffer()
      return r.status
    },
    () => 0,
  )
}

interface Clean {
  statuses: number[]
  ms: number[]
}

/** `n` sign-ins one after another, each from its own clean address (`198.51.100.<first + i>`). */
async function cleanSignIns(url: string, n: number, first: number): Promise<Clean> {
  const out: Clean = { statuses: [], ms: [] }
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    out.statuses.push(await signIn(url, `198.51.100.${first + i}`, EMAIL, PASSWORD))
    out.ms.push(performance.now() - t)
    await sleep(100)
  }
  return out
}

/** Each address keeps one wrong guess in flight until `stop` resolves; their answers' statuses. */
async function flood(url: string, addresses: number, stop: Promise<void>): Promise<number[]> {
  const statuses: number[] = []
  let running = true
  void stop.then(() => (running = false))
  let n = 0
  const loop = async (a: number) => {
    const ip = `10.${(a >> 16) & 255}.${(a >> 8) & 255}.${a & 255}`
    while (running) statuses.push(await signIn(url, ip, `guess-${a}-${n++}@bench.example`, 'a wrong guess here'))
  }
  await Promise.all(Array.from({ length: addresses }, (_, a) => loop(a + 1)))
  return statuses
}

const count = (xs: number[], x: number) => xs.filter((y) => y === x).length

function row(server: string, run: string, c: Clean, floodStatuses: number[] | undefined): Row {
  return {
    server,
    run,
    'clean sign-ins': c.statuses.length,
    'signed in (303)': count(c.statuses, 303),
    'refused (429)': count(c.statuses, 429),
    p50: fmtMs(percentileOf(c.ms, 50)),
    p90: fmtMs(percentileOf(c.ms, 90)),
    max: fmtMs(Math.max(...c.ms)),
    'flood requests': floodStatuses ? fmtInt(floodStatuses.length) : '—',
    'flood checked (401)': floodStatuses ? fmtInt(count(floodStatuses, 401)) : '—',
    'flood refused (429)': floodStatuses ? fmtInt(count(floodStatuses, 429)) : '—',
  }
}

async function measure(
  name: string,
  cwd: string | undefined,
  addresses: number,
  signins: number,
  warmupMs: number,
): Promise<Row[]> {
  const dataDir = tempDir()
  await seedOwner(dataDir)
  const server: ServerHandle = await startServer({
    dataDir,
    cwd,
    env: { TRUST_PROXY: '1', PUBLIC_URL: PUBLIC, RATE_LIMIT_ANONYMOUS_PER_MIN: '100000' },
  })
  try {
    // One sign-in first: the dummy hash and the statements are made, as on a server that has run a while.
    await signIn(server.url, '192.0.2.1', EMAIL, PASSWORD)
    const baseline = await cleanSignIns(server.url, signins, 1)
    let stop!: () => void
    const stopped = new Promise<void>((r) => (stop = r))
    const flooding = flood(server.url, addresses, stopped)
    // The flood fills the queue and each of its addresses has been served before people arrive.
    await sleep(warmupMs)
    const during = await cleanSignIns(server.url, signins, 101)
    stop()
    const floodStatuses = await flooding
    return [
      row(name, 'baseline (no flood)', baseline, undefined),
      row(name, `flood from ${addresses} addresses`, during, floodStatuses),
    ]
  } finally {
    await server.stop()
  }
}

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const addresses = Number(process.env.FLOOD_ADDRESSES ?? (opts.quick ? 100 : 200))
  const signins = opts.quick ? 10 : 20
  const warmupMs = opts.quick ? 5000 : 10_000
  const rows = await measure('this checkout', undefined, addresses, signins, warmupMs)
  const base = process.env.BENCH_BASE_DIR
  if (base) rows.push(...(await measure(`base (${base})`, base, addresses, signins, warmupMs)))
  const flooded = rows[1]!
  const refused = Number(flooded['refused (429)'])
  return {
    name: 'signin-flood',
    title:
      `People signing in from clean addresses while ${addresses} addresses flood the sign-in form ` +
      '(argon2id at its production cost)',
    rows,
    notes: [
      'Each flooding address keeps one wrong guess in flight at a fresh e-mail: ' +
        'only the argon2id queue (2 running, 64 waiting) holds them back.',
      `Each person signs in from an address of their own; the flood runs ${warmupMs / 1000} s before the ` +
        'first of them arrives.',
      'Target: no person from a clean address is refused (429) while the flood runs.',
    ],
    pass: refused === 0,
    summary:
      `clean addresses during a ${addresses}-address ` +
      `flood: ${flooded['signed in (303)']}/${flooded['clean sign-ins']} signed in, p50 ${flooded.p50}, ` +
      `p90 ${flooded.p90}`,
  }
}
