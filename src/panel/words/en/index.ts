/** The panel's words in English: the catalogue whose shape every other language has (shape.ts). */
import { ORDER_LINE_WORDS } from '../../../shop/i18n/order-lines'
import { common } from './common'
import { shell } from './shell'
import { nav } from './nav'
import { errors } from './errors'
import { signin } from './signin'
import { setup } from './setup'
import { account } from './account'
import { team } from './team'
import { activity } from './activity'
import { dashboard } from './dashboard'
import { orders } from './orders'
import { customerMessage } from './customer-message'
import { customers } from './customers'
import { products } from './products'
import { problems } from './problems'
import { settings } from './settings'
import { keys } from './keys'
import { webhooks } from './webhooks'
import { categories } from './categories'
import { discounts } from './discounts'
import { shipping } from './shipping'
import { reviews } from './reviews'
import { bulk } from './bulk'
import { apps } from './apps'
import { push } from './push'

export const en = {
  common,
  shell,
  nav,
  errors,
  signin,
  setup,
  account,
  team,
  activity,
  dashboard,
  orders,
  customerMessage,
  customers,
  products,
  problems,
  settings,
  keys,
  webhooks,
  categories,
  discounts,
  shipping,
  reviews,
  bulk,
  apps,
  push,
  /** An order's line table: the storefront's words, the same on the customer's order page. */
  orderLines: ORDER_LINE_WORDS.en,
}
