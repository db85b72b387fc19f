/**
 * Copies the reference UI's browser bundle from the pinned `@scalar/api-reference` devDependency
 * into src/openapi/vendor, gzipped, with its version and hash. The service serves that copy, so
 * /docs works without any network beyond the service, and the production install stays free of
 * the package's 260 runtime dependencies (the bundle is self-contained).
 *
 * Run after changing the pinned version: `bun scripts/vendor-docs-ui.ts`.
 * tests/openapi/docs-page.test.ts fails when the copy and the pinned package differ.
 */
import { createHash } from 'node:crypto'
import path from 'node:path'

const root = path.join(import.meta.dir, '..')
const pkgDir = path.join(root, 'node_modules/@scalar/api-reference')
const { version } = await Bun.file(path.join(pkgDir, 'package.json')).json()
const js = new Uint8Array(await Bun.file(path.join(pkgDir, 'dist/browser/standalone.js')).arrayBuffer())
const sha256 = createHash('sha256').update(js).digest('hex')
await Bun.write(path.join(root, 'src/openapi/vendor/scalar-api-reference.js.gz'), Bun.gzipSync(js, { level: 9 }))
await Bun.write(
  path.join(root, 'src/openapi/vendor/scalar-api-reference.json'),
  `${JSON.stringify({ package: '@scalar/api-reference', version, file: 'dist/browser/standalone.js', sha256 }, null, 2)}\n`,
)
console.log(`@scalar/api-reference ${version}: ${js.length} bytes, sha256 ${sha256.slice(0, 12)}…`)
