/**
 * New-order alerts on every panel page: the unseen count on the Orders links and in the title,
 * a screen-reader announcement, and a chime — all fed by the tab's one stream (live-stream.ts).
 *
 * The count starts from the server's (`data-unseen` on <body>: the orders new to this person, read
 * with the stream's starting point) and grows by each arrival new to the person after that point;
 * opening an order lowers it on the next page. Browsers play sound only after the person has
 * interacted with the page, so the chime's AudioContext is made on the first tap or key; the
 * header's switch turns the chime off and on, remembered on this device (localStorage).
 */
import { setBadge, countText } from './badges'
import { onOrders, pageAfter } from './live-stream'

const CHIME_KEY = 'panel.chime'

function chimeOn(): boolean {
  try {
    return localStorage.getItem(CHIME_KEY) !== 'off'
  } catch {
    return true
  }
}

function startChime(): () => void {
  let audio: AudioContext | undefined
  const arm = () => {
    try {
      audio ??= new AudioContext()
      if (audio.state === 'suspended') void audio.resume()
    } catch {
      /* no sound on this browser */
    }
  }
  for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, arm, { capture: true, passive: true })

  const toggle = document.getElementById('chime-switch')
  if (toggle) {
    const show = () => toggle.setAttribute('aria-pressed', String(chimeOn()))
    show()
    toggle.hidden = false
    toggle.addEventListener('click', () => {
      try {
        localStorage.setItem(CHIME_KEY, chimeOn() ? 'off' : 'on')
      } catch {
        /* private mode: the switch holds for this page only */
      }
      show()
    })
  }

  return () => {
    if (audio?.state !== 'running' || !chimeOn()) return
    const osc = audio.createOscillator()
    const gain = audio.createGain()
    osc.frequency.value = 880
    gain.gain.setValueAtTime(0.2, audio.currentTime)
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.5)
    osc.connect(gain).connect(audio.destination)
    osc.start()
    osc.stop(audio.currentTime + 0.5)
  }
}

export function startAlerts(): void {
  if (!document.body.dataset.stream) return
  const baseTitle = document.title.replace(/^\(\d+\+?\) /, '')
  let unseen = Number(document.body.dataset.unseen ?? 0) || 0
  const after = pageAfter()
  const show = () => {
    document.title = unseen > 0 ? `(${countText(unseen)}) ${baseTitle}` : baseTitle
    for (const link of document.querySelectorAll<HTMLElement>('a[data-badge="orders"]')) setBadge(link, unseen)
  }
  const chime = startChime()
  // The inbox has its own status line (orders-live.ts); elsewhere the frame's hidden one speaks.
  const say = (text: string) => {
    const status = document.getElementById('alerts-status')
    if (status && !document.getElementById('live-status')) status.textContent = text
  }
  onOrders({
    order(e) {
      if (!e.created || !(e.eventId > after)) return
      if (e.isNew) unseen++
      show()
      say(e.announce)
      chime()
    },
    burst(e) {
      unseen += e.created
      show()
      say(e.announce)
      chime()
    },
  })
}
