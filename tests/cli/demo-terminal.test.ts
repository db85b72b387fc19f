/**
 * What the terminal shows: the panel's link first (with a LAN link and a QR code of it when a
 * phone could use one), and with `bun run demo` nothing more as people browse — the request log
 * goes to DATA_DIR/logs/, so the links are still on screen after a thousand storefront requests.
 */
import { afterAll, expect, test } from 'bun:test'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { lanOrigins, panelLinkLines } from '../../src/cli/panel-links'
import { tempDir } from '../helpers/app'
import { freePort, ROOT } from '../helpers/server'
import { waitFor } from '../helpers/wait'

const base = { host: '0.0.0.0', trustProxy: false, publicUrl: undefined }

test('a LAN link only when a phone could reach it: listening everywhere, no proxy, no PUBLIC_URL', () => {
  expect(lanOrigins(base, 3443, ['192.168.1.23'])).toEqual(['https://192.168.1.23:3443'])
  expect(lanOrigins({ ...base, host: '127.0.0.1' }, 3443, ['192.168.1.23'])).toEqual([])
  expect(lanOrigins({ ...base, trustProxy: true }, 3443, ['192.168.1.23'])).toEqual([])
  expect(lanOrigins({ ...base, publicUrl: 'https://shop.example.com' }, 3443, ['192.168.1.23'])).toEqual([])
})

test('the panel link comes first; the LAN link follows with a QR code drawn in the terminal', () => {
  const text = panelLinkLines({ label: 'Seller panel', path: '/admin' }, 'https://localhost:3443', [
    'https://192.168.1.23:3443',
  ])
  const lines = text.split('\n')
  expect(lines[0]).toBe('Seller panel:')
  expect(lines[1]).toBe('  https://localhost:3443/admin')
  expect(text).toContain('  https://192.168.1.23:3443/admin\n')
  // uqr's compact rendering: half-block characters, several rows of them.
  expect(lines.filter((l) => /[▀▄█]/.test(l)).length).toBeGreaterThan(10)
  expect(panelLinkLines({ label: 'Seller panel', path: '/admin' }, 'https://localhost:3443', [])).toBe(
    'Seller panel:\n  https://localhost:3443/admin\n',
  )
})

const dataDir = tempDir('sf-demo-term-')
let proc: ReturnType<typeof Bun.spawn> | undefined
afterAll(async () => {
  proc?.kill('SIGTERM')
  await proc?.exited
  rmSync(dataDir, { recursive: true, force: true })
})

test('bun run demo: the panel link first, and still last on screen after 1,000 storefront requests', async () => {
  const port = await freePort()
  const httpPort = await freePort()
  proc = Bun.spawn(['bun', 'src/cli/demo.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HTTP_PORT: String(httpPort),
      HOST: '127.0.0.1',
      // A thousand reads from one address within a minute: the per-address limit would answer most with 429.
      SHOP_PAGES_PER_IP_PER_MIN: '100000',
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let screen = ''
  const read = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) screen += decoder.decode(chunk)
  }
  void read(proc.stdout as ReadableStream<Uint8Array>)
  void read(proc.stderr as ReadableStream<Uint8Array>)
  await waitFor('the demo’s links', () => screen.includes('Stop with Ctrl-C.'), 90_000)
  const first = screen.split('\n').find((l) => l.trim() !== '')
  expect(first).toStartWith('Seller panel: sign in as owner@demo.example')
  expect(screen).toContain(`https://127.0.0.1:${port}/admin/join?token=`)
  const shown = screen

  const ca = readFileSync(path.join(dataDir, 'tls', 'cert.pem'), 'utf8')
  let ok = 0
  for (let batch = 0; batch < 50; batch++) {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`https://127.0.0.1:${port}/s/demo`, { tls: { ca } } as RequestInit).then(async (r) => {
          await r.arrayBuffer()
          return r.status
        }),
      ),
    )
    ok += answers.filter((s) => s === 200).length
  }
  expect(ok).toBe(1000)
  const logFile = path.join(dataDir, 'logs', 'demo.log')
  await waitFor('the request log', () => {
    try {
      return (
        readFileSync(logFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes('/s/demo')).length >= 1000
      )
    } catch {
      return false
    }
  })
  // Nothing was added to the terminal: the links are what it still shows last.
  expect(screen).toBe(shown)
}, 180_000)
