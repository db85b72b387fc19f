/** The WhatsApp message a checkout answers with: the store's template filled with the order. */
import type { Order, OrderItem, Store } from '../../db/schema'
import { minorDigits, toMajor } from '../../lib/money'
import { placesStatusUrl, renderTemplate, whatsappUrl } from '../../lib/whatsapp'

function formatMoney(minor: number, currency: string): string {
  return `${toMajor(minor, currency).toFixed(minorDigits(currency))} ${currency}`
}

type Line = Pick<OrderItem, 'quantity' | 'productName' | 'variantName' | 'subtotal'>
export type MessageOrder = Pick<
  Order,
  | 'orderNumber'
  | 'customerName'
  | 'customerAddress'
  | 'itemsSubtotal'
  | 'shippingName'
  | 'shippingPrice'
  | 'discountCode'
  | 'discountAmount'
  | 'total'
  | 'currency'
>

/**
 * The wa.me link with the rendered message; the order's status page goes where the template
 * places `{status_url}`, or on a line of its own after the text. Null when the store has no
 * WhatsApp number. Shipping, discount and address are empty when the order has none, and the
 * template's lines that hold only empty placeholders are left out.
 */
export function whatsappFor(
  store: Pick<Store, 'name' | 'whatsappNumber' | 'whatsappTemplate' | 'language'>,
  order: MessageOrder,
  lines: Line[],
  statusUrl?: string,
): string | null {
  if (!store.whatsappNumber) return null
  const c = order.currency
  const items = lines
    .map((l) => {
      const variant = l.variantName ? ` (${l.variantName})` : ''
      return `- ${l.quantity} x ${l.productName}${variant}: ${formatMoney(l.subtotal, c)}`
    })
    .join('\n')
  const text = renderTemplate(
    store.whatsappTemplate,
    {
      store: store.name,
      customer: order.customerName,
      items,
      total: formatMoney(order.total, c),
      order: order.orderNumber,
      shipping: order.shippingName === null ? '' : `${order.shippingName} ${formatMoney(order.shippingPrice ?? 0, c)}`,
      discount: order.discountCode === null ? '' : `${order.discountCode} −${formatMoney(order.discountAmount, c)}`,
      address: order.customerAddress ?? '',
      status_url: statusUrl ?? '',
    },
    store.language,
  )
  const withLink = statusUrl && !placesStatusUrl(store.whatsappTemplate) ? `${text}\n\n${statusUrl}` : text
  return whatsappUrl(store.whatsappNumber, withLink)
}
