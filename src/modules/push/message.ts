/**
 * What a push says. The service worker shows `title` and `body`, opens `url` on a tap, and `tag`
 * makes a second push about the same order replace the first instead of stacking.
 */
import { toMajor } from '../../lib/money'
import { numberFormat } from '../../lib/intl'
import type { OrderFacts } from './sql'

export interface PushMessage {
  title: string
  body: string
  url: string
  tag: string
}

type Lang = 'en' | 'es' | 'pt'
const WORDS: Record<Lang, { newOrder: string; items: (n: number) => string; test: [string, string] }> = {
  en: {
    newOrder: 'New order',
    items: (n) => (n === 1 ? '1 item' : `${n} items`),
    test: ['Notifications are on', 'New orders will appear here.'],
  },
  es: {
    newOrder: 'Nuevo pedido',
    items: (n) => (n === 1 ? '1 artículo' : `${n} artículos`),
    test: ['Las notificaciones están activadas', 'Los pedidos nuevos aparecerán aquí.'],
  },
  pt: {
    newOrder: 'Novo pedido',
    items: (n) => (n === 1 ? '1 item' : `${n} itens`),
    test: ['As notificações estão ativadas', 'Os novos pedidos aparecerão aqui.'],
  },
}

const langOf = (l: string | null | undefined): Lang => (l === 'es' || l === 'pt' ? l : 'en')

/** "New order ORD-0042 · $18.50" / "Ana Souza · 3 items", linking the order's page. */
export function orderMessage(o: OrderFacts, language: string | null): PushMessage {
  const lang = langOf(language ?? o.storeLanguage)
  const w = WORDS[lang]
  return {
    title: `${w.newOrder} ${o.orderNumber} · ${numberFormat(lang, { style: 'currency', currency: o.currency }).format(toMajor(o.total, o.currency))}`,
    body: `${o.customerName} · ${w.items(o.items)}`,
    url: `/admin/orders/${o.id}`,
    tag: `order-${o.id}`,
  }
}

/** "Send a test notification": proves the whole path to this device. */
export function testMessage(language: string | null, at: number): PushMessage {
  const [title, body] = WORDS[langOf(language)].test
  return { title, body, url: '/admin/account', tag: `test-${at}` }
}
