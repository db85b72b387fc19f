/**
 * Live order lists (the inbox, the dashboard's latest orders), fed by the tab's one stream
 * (live-stream.ts). Each event carries the order's row as the server rendered it, in the person's
 * language: a row already on the page is replaced in place (a status move made elsewhere); a new
 * order goes on top of each list marked `data-live-list="<how many it shows>"` (the inbox's first
 * page unfiltered, the dashboard), which then drops its oldest row past that number. The inbox's
 * status line (#live-status) announces each arrival and move. The count, title and chime are
 * alerts.ts's.
 */
import { onOrders } from './live-stream'

export function startOrdersLive(): void {
  const status = document.getElementById('live-status')
  const lists = [...document.querySelectorAll<HTMLElement>('[data-live-list]')]
  if (!status && lists.length === 0) return
  // Without the script the line says to reload for new orders; once the stream is open, that they come by themselves.
  let opened = false
  onOrders({
    open() {
      if (opened || !status?.dataset.liveHint) return
      opened = true
      status.textContent = status.dataset.liveHint
    },
    order(d) {
      // The row's markup is the server's own, every stored text escaped there.
      const template = document.createElement('template')
      template.innerHTML = d.html
      const row = template.content.firstElementChild
      if (!row) return
      const existing = document.getElementById(`order-${d.id}`)
      if (existing) existing.replaceWith(row)
      else if (d.created)
        for (const list of lists) {
          list.prepend(row.cloneNode(true))
          const limit = Number(list.dataset.liveList)
          while (limit > 0 && list.children.length > limit) list.lastElementChild!.remove()
          if (list.dataset.empty) document.getElementById(list.dataset.empty)?.remove()
        }
      if (status) status.textContent = d.announce
    },
    burst(d) {
      if (status) status.textContent = d.announce
    },
  })
}
