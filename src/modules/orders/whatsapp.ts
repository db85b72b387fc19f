/** The WhatsApp message a checkout answers with: the store's template filled with the order. */
import type { Order, OrderItem, Store } from '../../db/schema'
import { minorDigits, toMajor } from '../../lib/money'
import { renderTemplate, whatsappUrl } from '../../lib/whatsapp'

function formatMoney(minor: number, currency: string): string {
  return `${toMajor(minor, currency).toFixed(minorDigits(currency))} ${currency}`
}

type Line = Pick<OrderItem, 'quantity' | 'productName' | 'variantName' | 'subtotal'>

/** The wa.me link with the rendered message and, on a line of its own, the order's status page; null when the store has no WhatsApp number. */
export function whatsappFor(
  store: Store,
  order: Pick<Order, 'customerName' | 'total' | 'currency'>,
  lines: Line[],
  statusUrl?: string,
): string | null {
  if (!store.whatsappNumber) return null
  const productos = lines
    .map(
      (l) =>
        `- ${l.quantity} x ${l.productName}${l.variantName ? ` (${l.variantName})` : ''}: ${formatMoney(l.subtotal, order.currency)}`,
    )
    .join('\n')
  const text = renderTemplate(
    store.whatsappTemplate,
    {
      tienda: store.name,
      productos,
      total: formatMoney(order.total, order.currency),
      nombre: order.customerName,
    },
    store.language,
  )
  return whatsappUrl(store.whatsappNumber, statusUrl ? `${text}\n\n${statusUrl}` : text)
}
