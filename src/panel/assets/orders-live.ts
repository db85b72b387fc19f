/**
 * The live orders inbox: an EventSource on the inbox's stream (`data-stream` on
 * #live-status). Each event carries the order's row as the server rendered it, in the person's
 * language: a row already on the page is replaced in place (a status move made elsewhere), a new
 * order goes on top when the page shows the newest orders unfiltered. The tab's title counts the
 * orders new to this person (the server marks each row for the person reading: `is-new`) plus
 * the new orders that arrived while this page shows another filter or page. Arrivals are
 * announced in the status line and chime once the page has had a click (browsers allow sound
 * only after one). EventSource reconnects by itself with Last-Event-ID.
 */
export function startOrdersLive(): void {
  const status = document.getElementById('live-status')
  const list = document.getElementById('orders')
  const url = status?.dataset.stream
  if (!status || !list || !url || typeof EventSource === 'undefined') return
  const live = status.dataset.live === '1'
  const baseTitle = document.title
  let offPage = 0
  const showCount = () => {
    const unseen = list.querySelectorAll('li.is-new').length + offPage
    document.title = unseen > 0 ? `(${unseen}) ${baseTitle}` : baseTitle
  }
  showCount()

  let audio: AudioContext | undefined
  document.addEventListener('click', () => {
    try {
      audio ??= new AudioContext()
    } catch {
      /* no sound on this browser */
    }
  })
  const chime = () => {
    if (!audio) return
    const osc = audio.createOscillator()
    const gain = audio.createGain()
    osc.frequency.value = 880
    gain.gain.setValueAtTime(0.2, audio.currentTime)
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.5)
    osc.connect(gain).connect(audio.destination)
    osc.start()
    osc.stop(audio.currentTime + 0.5)
  }

  const source = new EventSource(url)
  // A burst of more orders than the first page holds: the older ones are counted, not sent.
  source.addEventListener('burst', (event) => {
    try {
      const d = JSON.parse((event as MessageEvent<string>).data) as { created: number; announce: string }
      offPage += d.created
      status.textContent = d.announce
      showCount()
      chime()
    } catch {
      /* not ours */
    }
  })
  source.addEventListener('order', (event) => {
    let d: { id: string; created: boolean; isNew: boolean; html: string; announce: string }
    try {
      d = JSON.parse((event as MessageEvent<string>).data)
    } catch {
      return
    }
    // The row's markup is the server's own, every stored text escaped there.
    const template = document.createElement('template')
    template.innerHTML = d.html
    const row = template.content.firstElementChild
    if (!row) return
    const existing = document.getElementById(`order-${d.id}`)
    if (existing) existing.replaceWith(row)
    else if (d.created && live) {
      list.prepend(row)
      document.getElementById('orders-empty')?.remove()
    }
    if (d.created && !existing) {
      if (!live && d.isNew) offPage++
      chime()
    }
    showCount()
    status.textContent = d.announce
  })
}
