/**
 * The webhook delivery log keeps itself current: the page's rows are fetched again (the server
 * renders them, every stored text escaped there) every 3 s while a delivery is pending or being
 * sent, every 15 s otherwise, never while the tab is hidden, and not swapped while the focus is
 * on one of them (a Retry button). Without the script the page has a Refresh link instead.
 */
const BUSY_MS = 3_000
const IDLE_MS = 15_000

export function startWebhookLog(): void {
  const log = document.getElementById('delivery-log')
  const url = log?.dataset.log
  if (!log || !url) return
  document.querySelector('[data-refresh-link]')?.closest('p')?.setAttribute('hidden', '')
  const busy = () => log.querySelector('[data-status="pending"], [data-status="sending"]') !== null

  async function refresh() {
    if (document.visibilityState === 'visible' && !log!.contains(document.activeElement)) {
      try {
        const res = await fetch(url!, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
        if (res.ok) {
          const { html } = (await res.json()) as { html: string }
          const template = document.createElement('template')
          template.innerHTML = html
          log!.replaceChildren(template.content)
        }
      } catch {
        // Offline for a moment: the next turn tries again.
      }
    }
    setTimeout(refresh, busy() ? BUSY_MS : IDLE_MS)
  }
  setTimeout(refresh, busy() ? BUSY_MS : IDLE_MS)
}
