/**
 * The container image without a Docker daemon (none here): scripts/check-image.ts reproduces the
 * Dockerfile's install and start steps (production install without TypeScript, start, health
 * check, stop signal); compose.yaml and the Caddyfile agree with each other and with the drain.
 */
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { loadConfig } from '../../src/config'
import { ROOT } from '../helpers/server'

test('the Dockerfile install and start steps, reproduced: healthy, no TypeScript, exits 0 on its stop signal', () => {
  const run = Bun.spawnSync(['bun', 'scripts/check-image.ts'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const out = run.stdout.toString()
  if (run.exitCode !== 0) throw new Error(out + run.stderr.toString())
  expect(out).toContain('ok   direct (self-signed TLS): HEALTHCHECK passes')
  expect(out).toContain('ok   behind Caddy (TRUST_PROXY=1): GET /health')
  expect(out).toContain('ok   no typescript in the image')
}, 60_000)

test('compose.yaml: the service behind Caddy, TRUST_PROXY=1, a volume, a stop grace period over the drain', () => {
  const compose = Bun.YAML.parse(readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8')) as {
    services: Record<
      string,
      {
        environment?: Record<string, string>
        volumes?: string[]
        ports?: string[]
        stop_grace_period?: string
        image?: string
        expose?: string[]
      }
    >
    volumes: Record<string, unknown>
  }
  const app = compose.services.storefront!
  const caddy = compose.services.caddy!
  expect(app.environment!.TRUST_PROXY).toBe('1')
  expect(app.ports).toBeUndefined() // reachable only through Caddy
  expect(app.volumes).toContain('storefront-data:/data')
  expect(Object.keys(compose.volumes)).toContain('storefront-data')
  expect(caddy.ports).toEqual(expect.arrayContaining(['80:80', '443:443']))
  expect(caddy.image).toMatch(/^caddy:\d+\.\d+/)
  // Worst-case drain: SHUTDOWN_TIMEOUT_MS plus up to 5 s for webhook sends (src/server.ts).
  const drainS = loadConfig({}).shutdownTimeoutMs / 1000 + 5
  expect(Number(/^(\d+)s$/.exec(app.stop_grace_period!)![1])).toBeGreaterThan(drainS)
  const caddyfile = readFileSync(path.join(ROOT, 'Caddyfile'), 'utf8')
  expect(caddyfile).toContain(`reverse_proxy storefront:${app.environment!.PORT}`)
  expect(app.expose).toContain(app.environment!.PORT)
})
