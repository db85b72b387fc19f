/**
 * A client generated from the served OpenAPI document typechecks (issue "OpenAPI that generators
 * accept"): fetches /docs/json from a fresh app, generates types with openapi-typescript (run on
 * Node with TypeScript 5, see openapi-client/typescript5.mjs), and typechecks
 * openapi-client/example.ts against them with TypeScript 5's tsc, strict. Exit 1 on any error.
 *
 * Run by .ci/run; by hand: `bun scripts/check-openapi-client.ts`. Takes a few seconds, so it is
 * not part of `bun test` (tests/openapi/client.test.ts runs the same example against the app).
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createApp } from '../src/app'
import { closeDeps, createDeps } from '../src/deps'
import { testConfig } from '../src/config'
import { createLogger } from '../src/lib/log'

const root = path.join(import.meta.dir, '..')
const dataDir = mkdtempSync(path.join(tmpdir(), 'sf-openapi-client-'))
// Inside node_modules so `openapi-fetch` resolves from the repository's dependencies.
const work = path.join(root, 'node_modules/.cache', path.basename(dataDir))

function run(cmd: string[]): void {
  const p = Bun.spawnSync(cmd, { cwd: work, stdout: 'pipe', stderr: 'pipe' })
  const out = `${p.stdout.toString()}${p.stderr.toString()}`.trim()
  if (p.exitCode !== 0) {
    console.error(`✗ ${cmd.map((c) => path.basename(c)).join(' ')}\n${out}`)
    process.exit(1)
  }
}

try {
  const deps = createDeps(testConfig({ dataDir, logLevel: 'silent' }), { log: createLogger('silent') })
  const app = createApp(deps)
  const doc = await (await app.handle(new Request('http://localhost/docs/json'))).text()
  app.gate.close()
  closeDeps(deps)

  mkdirSync(work, { recursive: true })
  writeFileSync(path.join(work, 'openapi.json'), doc)
  cpSync(path.join(import.meta.dir, 'openapi-client/example.ts'), path.join(work, 'example.ts'))
  writeFileSync(
    path.join(work, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        lib: ['ES2022', 'DOM'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ['example.ts'],
    }),
  )
  const node = Bun.which('node')
  if (!node) throw new Error('node is needed to run openapi-typescript')
  run([
    node,
    '--import',
    path.join(import.meta.dir, 'openapi-client/typescript5.mjs'),
    path.join(root, 'node_modules/openapi-typescript/bin/cli.js'),
    'openapi.json',
    '-o',
    'api.d.ts',
  ])
  run([node, path.join(root, 'node_modules/typescript5/bin/tsc'), '-p', 'tsconfig.json'])
  console.log('✓ a client generated from /docs/json typechecks (openapi-typescript + TypeScript 5, strict)')
} finally {
  rmSync(work, { recursive: true, force: true })
  rmSync(dataDir, { recursive: true, force: true })
}
