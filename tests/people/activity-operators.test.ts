/**
 * The activity log records operators too: the admin CLI's store and invoice
 * commands write `cli` lines, and the billing sweep's suspensions `system` lines, each in the
 * writing transaction.
 */
import { expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { adminJson } from '../helpers/cli'
import { runBillingSweep } from '../../src/jobs/billing'

const clock = fixedClock(Date.UTC(2026, 4, 1, 9))
const t = appForFile({}, { clock })

const admin = (...argv: string[]) => adminJson(t.config.dataDir, clock, ...argv)
const lines = (storeId: string) =>
  t.deps.db.$client
    .query<{ actor: string; verb: string; type: string; id: string | null }, [string]>(
      'SELECT actor, verb, record_type AS type, record_id AS id FROM activity WHERE store_id = ? ORDER BY seq',
    )
    .all(storeId)

test('store:create, store:plan, store:suspend and store:reinstate write cli lines naming the store', () => {
  const created = admin('store:create', '--name', 'Tienda Uno')
  expect(created.code).toBe(0)
  const id = created.json.id as string
  expect(admin('store:plan', id, 'pro').code).toBe(0)
  expect(admin('store:suspend', id).code).toBe(0)
  expect(admin('store:reinstate', id).code).toBe(0)
  expect(lines(id)).toEqual([
    { actor: 'cli', verb: 'create', type: 'store', id },
    { actor: 'cli', verb: 'change plan', type: 'store', id },
    { actor: 'cli', verb: 'suspend', type: 'store', id },
    { actor: 'cli', verb: 'reinstate', type: 'store', id },
  ])
})

test(
  'invoice commands write cli lines naming the invoice; the billing sweep writes a system line for each ' +
    'store it suspends',
  () => {
    const { store } = makeShop(t.deps)
    const opened = admin('invoice:create', store.id, '--amount', '10', '--max-attempts', '1')
    expect(opened.code).toBe(0)
    const invoiceId = opened.json.id as string
    expect(admin('invoice:fail', invoiceId).code).toBe(0)
    clock.advance(30 * 86_400_000)
    expect(runBillingSweep(t.deps)).toContain(store.id)
    expect(lines(store.id)).toEqual([
      { actor: 'cli', verb: 'create', type: 'invoice', id: invoiceId },
      { actor: 'cli', verb: 'record failed charge', type: 'invoice', id: invoiceId },
      { actor: 'system', verb: 'suspend', type: 'store', id: store.id },
    ])
  },
)
