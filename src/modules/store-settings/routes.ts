import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import { authErrors, data, withConflict, routeDoc } from '../shared'
import { StoreSettings, StoreUpdate } from './model'
import { getStoreSettings, updateStoreSettings } from './service'

const doc = routeDoc('Store')

export const storeRoutes = new Elysia({ prefix: '/api/v1/store' })
  .use(access)
  .get('', ({ ctx }) => ({ data: getStoreSettings({ ctx }) }), {
    access: { scope: 'store:read' },
    response: { 200: data(StoreSettings), ...authErrors },
    detail: doc('Get the store settings'),
  })
  .put('', ({ ctx, body }) => ({ data: updateStoreSettings({ ctx, input: body }) }), {
    access: { scope: 'store:write' },
    body: StoreUpdate,
    response: { 200: data(StoreSettings), ...withConflict },
    detail: doc(
      'Update the store settings (partial)',
      ' `plan` and `status` are not writable (ignored). A taken slug → 409 DUPLICATE_SLUG. The currency ' +
        'is locked (409 CURRENCY_LOCKED) once the store has products, shipping options, ' +
        'money discounts or orders, because their amounts are stored in minor units of the current ' +
        "currency. `whatsappTemplate` may use only the placeholders listed on the field (any language's " +
        'name); unknown ones are 400 naming them in `details.placeholders`. `timezone` must be an IANA ' +
        'name (400 field `timezone` otherwise).',
    ),
  })
