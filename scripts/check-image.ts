/**
 * `bun run check:image`: the container image's install and start steps, reproduced without a
 * Docker daemon (none here). Reads the Dockerfile itself — the Bun version it pins, the deps
 * stage's COPY and `RUN bun install …`, the final stage's COPY, ENV, HEALTHCHECK, STOPSIGNAL and
 * CMD — and runs them in a temp dir: production install, start the service (as served directly
 * and as behind Caddy with TRUST_PROXY=1), its own health check until healthy, /health and
 * /docs/json, then the stop signal to exactly the pid it started. Prints a report; exit 1 if any
 * step fails. What it cannot check: the base image's contents and the `bun` user/volume setup.
 */
import { spawn, spawnSync } from 'bun'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

const ROOT = path.join(import.meta.dir, '..')
const docker = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ')
const lines = docker
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'))
const stages: string[][] = []
for (const l of lines) {
  if (l.startsWith('FROM ')) stages.push([])
  stages[stages.length - 1]?.push(l)
}
const [depsStage, finalStage] = [stages[0]!, stages[stages.length - 1]!]
const problems: string[] = []
const report: [string, string][] = []
const check = (ok: boolean, what: string, detail = '') => {
  report.push([`${ok ? 'ok  ' : 'FAIL'} ${what}`, detail])
  if (!ok) problems.push(`${what} ${detail}`)
}

const bunVersion = /ARG BUN_VERSION=(\S+)/.exec(docker)?.[1]
check(bunVersion === Bun.version, 'base image pins the Bun in use', `oven/bun:${bunVersion} vs bun ${Bun.version}`)
check(!/FROM oven\/bun:1(\s|$)/.test(docker), 'no floating oven/bun:1 tag')
for (const word of ['STOPSIGNAL SIGTERM', 'org.opencontainers.image.title', 'HEALTHCHECK'])
  check(docker.includes(word), `Dockerfile has ${word}`)

const work = mkdtempSync(path.join(tmpdir(), 'sf-image-'))
const copy = (stage: string[], dest: string) => {
  for (const l of stage.filter((x) => x.startsWith('COPY ') && !x.includes('--from'))) {
    const parts = l.split(/\s+/).slice(1)
    const target = parts.pop()!
    for (const src of parts)
      cpSync(path.join(ROOT, src), path.join(dest, target.endsWith('/') ? path.basename(src) : target), {
        recursive: true,
      })
  }
}
const du = (dir: string) => Number(spawnSync(['du', '-sm', dir]).stdout.toString().split('\t')[0])

// The deps stage, then the same install without --omit=peer for the figure it is compared with.
const install = depsStage.find((l) => l.startsWith('RUN bun install'))!.slice(4)
const depsDir = path.join(work, 'deps')
mkdirSync(depsDir)
copy(depsStage, depsDir)
const t = performance.now()
const inst = spawnSync(['sh', '-c', install], { cwd: depsDir, stderr: 'pipe', stdout: 'pipe' })
check(
  inst.exitCode === 0,
  `deps stage: ${install}`,
  `${Math.round(performance.now() - t)} ms ${inst.exitCode ? inst.stderr.toString() : ''}`,
)
const plainDir = path.join(work, 'plain')
mkdirSync(plainDir)
copy(depsStage, plainDir)
spawnSync(['sh', '-c', 'bun install --frozen-lockfile --production'], {
  cwd: plainDir,
  stdout: 'ignore',
  stderr: 'ignore',
})
const [size, plainSize] = [du(path.join(depsDir, 'node_modules')), du(path.join(plainDir, 'node_modules'))]
check(size < plainSize, 'node_modules size', `${size} MB (plain --production: ${plainSize} MB)`)
for (const pkg of ['typescript', '@typescript', '@types/bun', 'bun-types'])
  check(!existsSync(path.join(depsDir, 'node_modules', pkg)), `no ${pkg} in the image`)
rmSync(plainDir, { recursive: true, force: true })

// The final stage's files.
const app = path.join(work, 'app')
mkdirSync(app)
cpSync(path.join(depsDir, 'node_modules'), path.join(app, 'node_modules'), { recursive: true })
copy(finalStage, app)
const env: Record<string, string> = {}
for (const l of finalStage.filter((x) => x.startsWith('ENV ')))
  for (const m of l.slice(4).matchAll(/(\w+)=(\S+)/g)) env[m[1]!] = m[2]!
/** The exec-form command of the line starting with `directive` (HEALTHCHECK's is after its CMD). */
const execForm = (directive: string) =>
  JSON.parse(/CMD (\[.*\])/.exec(finalStage.find((l) => l.startsWith(`${directive} `))!)![1]!) as string[]
const cmd = execForm('CMD')
const healthcheck = execForm('HEALTHCHECK')
const stopSignal = (/STOPSIGNAL (\w+)/.exec(docker)?.[1] ?? 'SIGTERM') as NodeJS.Signals

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

async function startAndStop(mode: string, extra: Record<string, string>) {
  const dataDir = path.join(work, `data-${mode}`)
  const runEnv = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME ?? work,
    ...env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    HTTP_PORT: String(await freePort()),
    ...extra,
  }
  const started = performance.now()
  const proc = spawn(cmd, { cwd: app, env: runEnv, stdout: 'pipe', stderr: 'pipe' })
  let healthy = false
  while (!healthy && performance.now() - started < 15_000 && proc.exitCode === null) {
    healthy = spawnSync(healthcheck, { cwd: app, env: runEnv }).exitCode === 0
    if (!healthy) await Bun.sleep(100)
  }
  check(
    healthy,
    `${mode}: HEALTHCHECK passes`,
    `${Math.round(performance.now() - started)} ms after start (pid ${proc.pid})`,
  )
  if (healthy) {
    const base = `${extra.TRUST_PROXY ? 'http' : 'https'}://127.0.0.1:${runEnv.PORT}`
    const tls = { rejectUnauthorized: false }
    const health = await fetch(`${base}/health`, { tls } as RequestInit)
    check(health.status === 200, `${mode}: GET /health`, `${health.status} ${await health.text()}`)
    const docs = await fetch(`${base}/docs/json`, { tls, headers: { 'x-forwarded-proto': 'https' } } as RequestInit)
    check(docs.status === 200, `${mode}: GET /docs/json (OpenAPI without TypeScript)`, String(docs.status))
    check(
      (statSync(dataDir).mode & 0o777) === 0o700,
      `${mode}: DATA_DIR is 0700`,
      (statSync(dataDir).mode & 0o777).toString(8),
    )
  }
  const signalled = performance.now()
  proc.kill(stopSignal)
  const code = await proc.exited
  check(
    code === 0,
    `${mode}: ${stopSignal} → exit 0`,
    `exit ${code} in ${Math.round(performance.now() - signalled)} ms`,
  )
  if (code !== 0 || !healthy) console.error(await new Response(proc.stderr).text())
}

try {
  await startAndStop('direct (self-signed TLS)', {})
  await startAndStop('behind Caddy (TRUST_PROXY=1)', { TRUST_PROXY: '1', PUBLIC_URL: 'https://shop.example.com' })
} finally {
  rmSync(work, { recursive: true, force: true })
}

const width = Math.max(...report.map(([a]) => a.length))
console.log(report.map(([a, b]) => `${a.padEnd(width)}  ${b}`).join('\n'))
console.log(
  problems.length
    ? `\n${problems.length} problem(s)`
    : '\nthe image steps work (reproduced without Docker: no daemon here)',
)
process.exit(problems.length ? 1 : 0)
