/**
 * Files at rest: the real service,
 * started with a permissive umask (022) as a shell would, creates DATA_DIR 0700 and every file in
 * it 0600 — the database, its -wal and -shm, secret.key, the TLS key — also the WAL it creates
 * again after a clean stop; a DATA_DIR left loose by an older version is tightened at start.
 */
import { afterAll, expect, test } from 'bun:test'
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { runAdmin } from '../../src/cli/admin'
import { tempDir } from '../helpers/app'
import { freePort, spawnServer } from '../helpers/server'

const parent = tempDir('sf-modes-')
const dataDir = path.join(parent, 'data')
afterAll(() => rmSync(parent, { recursive: true, force: true }))

/** Every entry under `dir` with its permission bits, e.g. { 'storefront.db': '600', tls: '700' }. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = { '.': (statSync(dir).mode & 0o777).toString(8) }
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      out[path.relative(dir, p)] = (statSync(p).mode & 0o777).toString(8)
      if (e.isDirectory()) walk(p)
    }
  }
  walk(dir)
  return out
}
const expectPrivate = (m: Record<string, string>) => {
  for (const [name, mode] of Object.entries(m)) {
    const isDir = name === '.' || statSync(path.join(dataDir, name)).isDirectory()
    expect(`${name} ${mode}`).toBe(`${name} ${isDir ? '700' : '600'}`)
  }
}

/** Starts the real entry point under umask 022 (what a login shell gives), writes through it. */
async function startAndWrite(key: string | undefined) {
  const previous = process.umask(0o022)
  const [port, httpPort] = [await freePort(), await freePort()]
  let server
  try {
    server = await spawnServer({ DATA_DIR: dataDir, PORT: String(port), HTTP_PORT: String(httpPort) })
  } finally {
    process.umask(previous)
  }
  if (key) {
    const ca = readFileSync(path.join(dataDir, 'tls', 'cert.pem'), 'utf8')
    const res = await fetch(`https://127.0.0.1:${port}/api/v1/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Mug', price: 4 }),
      tls: { ca },
    } as RequestInit)
    expect(res.status).toBe(201)
  }
  return server
}
async function stop(server: Awaited<ReturnType<typeof spawnServer>>) {
  // "listening" is logged once the signal handlers are installed (server.ts).
  server.proc.kill('SIGTERM')
  expect(await server.proc.exited).toBe(0)
}

test('a fresh DATA_DIR: 0700; each file the service makes 0600 (db, -wal, -shm, secret.key, tls/key.pem)', async () => {
  const server = await startAndWrite(undefined)
  try {
    const m = modes(dataDir)
    for (const f of ['storefront.db', 'storefront.db-wal', 'storefront.db-shm', 'secret.key', 'tls/key.pem'])
      expect(m[f]).toBe('600')
    expect(m['.']).toBe('700')
    expectPrivate(m)
  } finally {
    await stop(server)
  }
  // The clean stop checkpointed and removed the WAL: the next start must create it 0600 again.
  expect(existsSync(path.join(dataDir, 'storefront.db-wal'))).toBe(false)
})

test('loose modes left by an older version are tightened at start; the WAL made by later writes is 0600', async () => {
  const out: string[] = []
  expect(
    runAdmin(
      ['store:create', '--name', 'Modes Shop', '--json'],
      (s) => out.push(s),
      { DATA_DIR: dataDir },
      () => {},
    ),
  ).toBe(0)
  expect(
    runAdmin(
      ['key:create', '--store', 'modes-shop', '--scopes', 'all', '--json'],
      (s) => out.push(s),
      { DATA_DIR: dataDir },
      () => {},
    ),
  ).toBe(0)
  const { key } = JSON.parse(out[1]!)
  chmodSync(dataDir, 0o755)
  for (const f of ['storefront.db', 'secret.key', 'tls/key.pem', 'tls/cert.pem'])
    chmodSync(path.join(dataDir, f), 0o644)
  chmodSync(path.join(dataDir, 'tls'), 0o755)
  expect(modes(dataDir)['storefront.db']).toBe('644')

  const server = await startAndWrite(key)
  try {
    const m = modes(dataDir)
    expect(m['storefront.db-wal']).toBe('600')
    expectPrivate(m)
  } finally {
    await stop(server)
  }
})
