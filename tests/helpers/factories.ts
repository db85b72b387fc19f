/** Factories make unique data per call, so tests never collide. */
import type { Deps } from '../../src/deps'
import { createKey } from '../../src/modules/keys/service'
import { createStore, type CreateStoreInput } from '../../src/modules/platform-stores/service'
import type { Plan } from '../../src/db/schema'

let n = 0
export const uniq = (p = 'x') => `${p}-${Date.now().toString(36)}-${(++n).toString(36)}`

export function makeStore(deps: Deps, input: Partial<CreateStoreInput> & { plan?: Plan } = {}) {
  const name = input.name ?? uniq('Shop')
  return createStore({ ctx: deps, input: { name, slug: input.slug ?? uniq('shop').toLowerCase(), plan: input.plan ?? 'pro', currency: input.currency ?? 'USD', whatsapp: input.whatsapp ?? '+14155550100', ...input } })
}

export function makeKey(deps: Deps, storeId: string, scopes: string[] = ['all'], extra: { expiresAt?: number | null } = {}) {
  return createKey({ ctx: deps, input: { storeId, scopes, ...extra } }).key
}

/** A store with an all-scopes key: the usual starting point. */
export function makeShop(deps: Deps, input: Partial<CreateStoreInput> & { plan?: Plan } = {}) {
  const store = makeStore(deps, input)
  return { store, key: makeKey(deps, store.id) }
}
