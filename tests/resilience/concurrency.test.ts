/**
 * Races over a real HTTPS socket (CI sizes; full sizes in `bun run resilience`): tests/resilience/concurrency.ts.
 */
import { afterAll, beforeAll, test } from 'bun:test'
import {
  CI_SIZES,
  discountRace,
  identicalOrders,
  keyBurst,
  startHarness,
  statusRaces,
  type Harness,
} from './concurrency'
import { expectClean } from './expect'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h.close())

test(`${CI_SIZES.identical} identical order posts at once → one 201, the rest 409 DUPLICATE_ORDER`, async () => {
  expectClean(await identicalOrders(h, CI_SIZES.identical))
}, 30_000)

test(`${CI_SIZES.keyBurst} concurrent requests on one key → exactly 100 not 429`, async () => {
  expectClean(await keyBurst(h, CI_SIZES.keyBurst))
}, 30_000)

test('concurrent status moves on one order → exactly one racer wins each transition', async () => {
  expectClean(await statusRaces(h, CI_SIZES.statusRacers))
}, 30_000)

test(`${CI_SIZES.discountRacers} orders race for a discount with maxUses ${CI_SIZES.discountMaxUses} → ` +
  'usedCount never over, exactly maxUses orders carry it', async () => {
  expectClean(await discountRace(h, CI_SIZES.discountMaxUses, CI_SIZES.discountRacers))
}, 30_000)
