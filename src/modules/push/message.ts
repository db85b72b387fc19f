/**
 * What a push says. The service worker shows `title` and `body`, opens `url` on a tap, and `tag`
 * makes a second push about the same order replace the first instead of stacking.
 */
import { toMajor } from '../../lib/money'
import { numberFormat } from '../../lib/intl'
import type { ReviewFacts, StockFacts, WebhookFacts } from './sql/alerts'
import type { OrderFacts } from './sql/queue'

export interface PushMessage {
  title: string
  body: string
  url: string
  tag: string
}

type Lang = 'en' | 'es' | 'pt'
interface Words {
  newOrder: string
  items: (n: number) => string
  test: [string, string]
  review: string
  lowStock: string
  left: (n: number) => string
  webhookDisabled: string
}

const WORDS: Record<Lang, Words> = {
  en: {
    review: 'Review waiting',
    lowStock: 'Low stock',
    left: (n) => `${n} left`,
    webhookDisabled: 'Webhook endpoint disabled',
    newOrder: 'New order',
    items: (n) => (n === 1 ? '1 item' : `${n} items`),
    test: ['Notifications are on', 'New orders will appear here.'],
  },
  es: {
    review: 'Reseña pendiente',
    lowStock: 'Poco stock',
    left: (n) => (n === 1 ? 'Queda 1' : `Quedan ${n}`),
    webhookDisabled: 'Endpoint de webhook desactivado',
    newOrder: 'Nuevo pedido',
    items: (n) => (n === 1 ? '1 artículo' : `${n} artículos`),
    test: ['Las notificaciones están activadas', 'Los pedidos nuevos aparecerán aquí.'],
  },
  pt: {
    review: 'Avaliação aguardando',
    lowStock: 'Estoque baixo',
    left: (n) => (n === 1 ? 'Resta 1' : `Restam ${n}`),
    webhookDisabled: 'Endpoint de webhook desativado',
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
  const total = numberFormat(lang, { style: 'currency', currency: o.currency }).format(toMajor(o.total, o.currency))
  return {
    title: `${w.newOrder} ${o.orderNumber} · ${total}`,
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

/** "Review waiting · Mug" / "Ana · 4★", linking the reviews to moderate. */
export function reviewMessage(r: ReviewFacts, language: string | null): PushMessage {
  const w = WORDS[langOf(language ?? r.storeLanguage)]
  return {
    title: `${w.review} · ${r.productName}`,
    body: `${r.customerName} · ${r.rating}★`,
    url: '/admin/reviews',
    tag: `review-${r.id}`,
  }
}

/** "Low stock · Mug (Blue)" / "3 left", linking the product's page. */
export function lowStockMessage(f: StockFacts, language: string | null): PushMessage {
  const w = WORDS[langOf(language ?? f.storeLanguage)]
  const item = f.variantName ? `${f.productName} (${f.variantName})` : f.productName
  return {
    title: `${w.lowStock} · ${item}`,
    body: w.left(f.stock),
    url: `/admin/products/${encodeURIComponent(f.productId)}`,
    tag: `stock-${f.variantId ?? f.productId}`,
  }
}

/** "Webhook endpoint disabled" / its URL, linking the endpoint's page (why, and turning it on again). */
export function webhookDisabledMessage(f: WebhookFacts, language: string | null): PushMessage {
  const w = WORDS[langOf(language ?? f.storeLanguage)]
  return {
    title: w.webhookDisabled,
    body: f.url,
    url: `/admin/webhooks/${encodeURIComponent(f.id)}`,
    tag: `webhook-${f.id}`,
  }
}
