/**
 * What "Message on WhatsApp" and "Tell … on WhatsApp" write to the customer for an order's
 * current status: in the store's language (es | en | pt), not the person's, since the customer
 * reads it. A shipped order's message carries its tracking number and link when it has them.
 */
import type { OrderStatus } from '../../../modules/orders'
import { isPanelLanguage, panelWords } from '../../words'

type Message = (name: string, number: string, total: string) => string

export function customerMessage(
  storeLanguage: string,
  status: OrderStatus,
  name: string,
  number: string,
  total: string,
  tracking: { number: string | null; url: string | null } = { number: null, url: null },
): string {
  const w = panelWords(isPanelLanguage(storeLanguage) ? storeLanguage : 'en')
  const say: Message = w.customerMessage[status]
  const text = say(name, number, total)
  if (status !== 'shipped' && status !== 'delivered') return text
  const lines = [
    tracking.number ? `${w.orders.trackingNumber}: ${tracking.number}` : '',
    tracking.url ? `${w.customerMessage.followTracking}: ${tracking.url}` : '',
  ].filter(Boolean)
  return lines.length ? `${text}\n${lines.join('\n')}` : text
}
