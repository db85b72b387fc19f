/**
 * The tab's one stream of order events (GET /admin/orders/live, Server-Sent Events), shared by
 * whatever the page shows: the Orders link's count, the title and the chime (alerts.ts), the inbox
 * and the dashboard's latest orders (orders-live.ts). The frame puts the stream's address on
 * <body data-stream data-after> for a person whose role reads orders; a page whose list was read
 * before the frame (the inbox, the dashboard) gives its own earlier `data-after` on the list, and
 * the stream starts at the earliest, so no order committed in between is missed. EventSource
 * reconnects by itself with Last-Event-ID — except after `superseded`: the session opened more
 * tabs than it may hold streams, and this, its oldest, stops listening (a reload listens again).
 */
export interface OrderEvent {
  id: string
  created: boolean
  status: string
  isNew: boolean
  /** The order's inbox row, rendered and escaped by the server in the person's language. */
  html: string
  announce: string
  /** The log id of the event (the stream's `id:`). */
  eventId: number
}

export interface BurstEvent {
  created: number
  announce: string
}

export interface StreamListener {
  /** The stream is open (again, after a reconnect). */
  open?(): void
  order?(e: OrderEvent): void
  burst?(e: BurstEvent): void
}

let listeners: StreamListener[] | undefined

/** Where the page's alerts start: the order log's head read with the unseen count. */
export const pageAfter = () => Number(document.body.dataset.after ?? 0)

function open(): StreamListener[] | undefined {
  const base = document.body.dataset.stream
  if (!base || typeof EventSource === 'undefined') return undefined
  const afters = [
    pageAfter(),
    ...[...document.querySelectorAll<HTMLElement>('main [data-after]')].map((l) => Number(l.dataset.after)),
  ]
  const after = Math.min(...afters.filter((n) => Number.isSafeInteger(n) && n >= 0))
  const list: StreamListener[] = []
  const source = new EventSource(`${base}?after=${after}`)
  source.addEventListener('open', () => {
    for (const l of list) l.open?.()
  })
  source.addEventListener('order', (event) => {
    const m = event as MessageEvent<string>
    let d: OrderEvent
    try {
      d = { ...JSON.parse(m.data), eventId: Number(m.lastEventId) }
    } catch {
      return
    }
    for (const l of list) l.order?.(d)
  })
  source.addEventListener('superseded', () => source.close())
  // A burst of more orders than one read sends: the older ones are counted, not sent.
  source.addEventListener('burst', (event) => {
    let d: BurstEvent
    try {
      d = JSON.parse((event as MessageEvent<string>).data)
    } catch {
      return
    }
    for (const l of list) l.burst?.(d)
  })
  return list
}

/** Listens to the tab's stream, opening it on the first call; false when the page has none. */
export function onOrders(l: StreamListener): boolean {
  listeners ??= open()
  if (!listeners) return false
  listeners.push(l)
  return true
}
