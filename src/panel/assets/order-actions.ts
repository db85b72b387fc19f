/**
 * The seller's quick moves on the page: "Confirm and message" confirms the order and opens the
 * customer's WhatsApp message in one tap; the packing slip's Print button; the store's time zone
 * proposed from the browser's. Without the script every form still posts: "Confirm and message"
 * then lands on the order page, which leads with "Tell … on WhatsApp".
 */
export function startOrderActions(): void {
  // Rows the live stream inserts are shared by every reader, so their forms come without the
  // form token: it is taken from the page's own forms when one is sent.
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target
      if (!(form instanceof HTMLFormElement)) return
      const slot = form.querySelector<HTMLInputElement>('input[name="_csrf"]')
      if (slot && !slot.value) slot.value = pageToken() ?? ''
      if (form.hasAttribute('data-then-message')) confirmAndMessage(event, form)
    },
    true,
  )

  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-print]')) {
    button.hidden = false
    button.addEventListener('click', () => window.print())
  }

  // The store's clock, proposed from the browser's when the field is still empty.
  for (const input of document.querySelectorAll<HTMLInputElement>('input[data-browser-zone]')) {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
    if (!input.value && zone) input.value = zone
  }
}

const pageToken = () =>
  [...document.querySelectorAll<HTMLInputElement>('input[name="_csrf"]')].find((i) => i.value)?.value

/**
 * The move over fetch (the server answers JSON with the message's link), then the message in a
 * new tab. The tab is opened during the tap itself, as browsers allow, and sent to WhatsApp once
 * the move is made; if the move fails the tab closes and the form posts the ordinary way.
 */
function confirmAndMessage(event: SubmitEvent, form: HTMLFormElement): void {
  if (form.dataset.sent) return // the fallback post
  event.preventDefault()
  const tab = window.open('about:blank', '_blank')
  const button = form.querySelector('button')
  if (button) button.disabled = true
  fetch(form.action, {
    method: 'POST',
    // A form of text fields only (its buttons carry no files): each value as its string.
    body: new URLSearchParams([...new FormData(form)].map(([k, v]) => [k, String(v)])),
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
  })
    .then(async (res) => {
      if (!res.ok) throw new Error(String(res.status))
      const { whatsapp, next } = (await res.json()) as { whatsapp: string | null; next: string }
      if (tab && whatsapp?.startsWith('https://wa.me/')) {
        tab.opener = null
        tab.location.href = whatsapp
      } else tab?.close()
      // The row shows the new status (and the order page leads with the message when no tab opened).
      if (tab && whatsapp) window.location.reload()
      else window.location.assign(next)
    })
    .catch(() => {
      tab?.close()
      form.dataset.sent = '1'
      form.requestSubmit()
    })
}
