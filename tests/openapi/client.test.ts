/**
 * The example client of docs/openapi.md (scripts/openapi-client/example.ts), written against
 * types generated from /docs/json, runs against the service: what the document says a client
 * sends is what the service accepts. scripts/check-openapi-client.ts (CI) typechecks it.
 */
import { expect, test } from 'bun:test'
import path from 'node:path'
import { appForFile } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { makeCatalog } from '../helpers/factories'

const t = appForFile()

test('lists products, places an order and confirms it through openapi-fetch', async () => {
  const { store, key } = makeShop(t.deps)
  makeCatalog(t.deps, store.id)
  // Loaded by path: its `./api` types exist only where the CI check generates them.
  const examplePath = path.join(import.meta.dir, '../../scripts/openapi-client/example.ts')
  const { listOrderAndConfirm } = await import(examplePath)
  const result = await listOrderAndConfirm({
    baseUrl: 'http://localhost',
    apiKey: key,
    storeId: store.id,
    fetch: (req: Request) => t.app.handle(req),
  })
  expect(result.products).toBeGreaterThan(0)
  expect(result.order.status).toBe('confirmed')
  expect(result.units).toBe(2)
  expect(Number.isInteger(result.order.items[0].quantity)).toBe(true)
})
