import { Elysia } from 'elysia'
import type { Deps } from '../../context'
import { ctxFor } from '../../context'
import { authed } from '../../plugins/auth'
import { authErrors, data, withConflict, keyRouteDoc } from '../shared/model'
import { StoreSettings, StoreUpdate } from './model'
import { getStoreSettings, updateStoreSettings } from './service'

const doc = keyRouteDoc('Store')

export const storeRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/v1/store' })
    .use(authed(deps))
    .get('', ({ auth }) => ({ data: getStoreSettings(ctxFor(deps, auth.store)) }), {
      response: { 200: data(StoreSettings), ...authErrors },
      detail: doc('Get the store settings', 'store:read'),
    })
    .put('', ({ auth, body }) => ({ data: updateStoreSettings(ctxFor(deps, auth.store), body) }), {
      body: StoreUpdate,
      response: { 200: data(StoreSettings), ...withConflict },
      detail: doc(
        'Update the store settings (partial)',
        'store:write',
        ' `plan` and `status` are not writable (ignored). A taken slug → 409 DUPLICATE_SLUG. The currency is locked (409 CURRENCY_LOCKED) once the store has products, shipping options, money discounts or orders, because their amounts are stored in minor units of the current currency. `whatsappTemplate` may use only {tienda}, {productos}, {total}, {nombre}.',
      ),
    })
