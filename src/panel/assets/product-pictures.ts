/**
 * The product editor's pictures, on top of forms that work without it: picked or
 * dropped files upload one by one (XMLHttpRequest, for its upload progress) to the form's own
 * route with the session's form token, each with a progress bar and its own error; "Move
 * earlier/later" and dragging a picture post the same move form's route. Each answer carries the
 * list as the server rendered it (every stored text escaped there), swapped in whole; moves are
 * said in the live region and keep the keyboard's focus on the moved picture.
 */
type Answer = { ok: boolean; html?: string; announce?: string; error?: string }

export function startProductPictures(): void {
  const list = document.getElementById('picture-list')
  const status = document.getElementById('pictures-status')
  if (!list || !status) return
  const base = list.dataset.base ?? ''
  const token = () => document.querySelector<HTMLInputElement>('input[name="_csrf"]')?.value ?? ''
  const say = (text: string | undefined) => {
    if (text) status.textContent = text
  }

  /** The server's list in place of ours; focus back on the moved picture's button that goes the same way. */
  function swap(html: string | undefined, focus?: { id: string; earlier: boolean }) {
    if (html === undefined) return
    const template = document.createElement('template')
    template.innerHTML = html
    list!.replaceChildren(template.content)
    const some = list!.children.length > 0
    document.getElementById('no-pictures')?.toggleAttribute('hidden', some)
    document.getElementById('drag-hint')?.toggleAttribute('hidden', !some)
    if (!focus) return
    const item = document.getElementById(`picture-${focus.id}`)
    const forms = [...(item?.querySelectorAll<HTMLFormElement>('form[data-move]') ?? [])]
    const wanted = forms.find((f) => isEarlier(f) === focus.earlier) ?? forms[0]
    wanted?.querySelector('button')?.focus()
  }

  const positionOf = (f: HTMLFormElement) =>
    Number((f.elements.namedItem('position') as HTMLInputElement | null)?.value)
  const isEarlier = (f: HTMLFormElement) => positionOf(f) < Number(f.closest<HTMLElement>('li')?.dataset.position)

  async function move(id: string, position: number, earlier: boolean) {
    try {
      const res = await fetch(`${base}/${encodeURIComponent(id)}/move`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: {
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
          'x-form-token': token(),
        },
        body: new URLSearchParams({ position: String(position) }),
      })
      const answer = (await res.json()) as Answer
      swap(answer.html, { id, earlier })
      say(answer.ok ? answer.announce : answer.error)
    } catch {
      location.reload()
    }
  }

  list.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement
    const id = form.closest<HTMLElement>('li')?.dataset.id
    if (!form.matches('form[data-move]') || !id) return
    event.preventDefault()
    void move(id, positionOf(form), isEarlier(form))
  })

  // Dragging: the buttons stay for keyboards and touch screens.
  let dragged: HTMLElement | undefined
  const itemAt = (e: Event) => (e.target as Element | null)?.closest<HTMLElement>('li.picture') ?? undefined
  list.addEventListener('dragstart', (e) => {
    dragged = itemAt(e)
    if (!dragged || !e.dataTransfer) return
    e.dataTransfer.effectAllowed = 'move'
    e.dataTransfer.setData('text/plain', dragged.dataset.id ?? '')
    dragged.classList.add('dragging')
  })
  list.addEventListener('dragover', (e) => {
    const over = itemAt(e)
    if (!dragged || !over) return
    e.preventDefault()
    for (const li of list.querySelectorAll('.drop-target')) if (li !== over) li.classList.remove('drop-target')
    if (over !== dragged) over.classList.add('drop-target')
  })
  list.addEventListener('dragend', () => {
    dragged?.classList.remove('dragging')
    for (const li of list.querySelectorAll('.drop-target')) li.classList.remove('drop-target')
    dragged = undefined
  })
  list.addEventListener('drop', (e) => {
    const over = itemAt(e)
    const from = dragged
    if (!from || !over || over === from) return
    e.preventDefault()
    const to = Number(over.dataset.position)
    void move(from.dataset.id ?? '', to, to < Number(from.dataset.position))
  })
  if (list.children.length) document.getElementById('drag-hint')?.removeAttribute('hidden')

  startUploads(token, swap, say)
}

/** Picked or dropped files, one request each, in turn (the store's uploads in flight are bounded). */
function startUploads(
  token: () => string,
  swap: (html: string | undefined) => void,
  say: (text: string | undefined) => void,
): void {
  const form = document.getElementById('picture-upload') as HTMLFormElement | null
  const input = form?.querySelector<HTMLInputElement>('input[type="file"]')
  const progress = document.getElementById('upload-progress')
  if (!form || !input || !progress || typeof XMLHttpRequest === 'undefined') return
  document.getElementById('drop-hint')?.removeAttribute('hidden')
  // Picking files uploads them: the no-script form's Upload button would only send nothing again.
  form.querySelector('[data-upload-button]')?.setAttribute('hidden', '')
  const words = progress.dataset

  function row(file: File) {
    const li = document.createElement('li')
    const name = document.createElement('span')
    name.textContent = file.name
    const bar = document.createElement('progress')
    bar.max = 100
    bar.value = 0
    bar.setAttribute('aria-label', (words.uploading ?? '{name}').replace('{name}', file.name))
    const state = document.createElement('span')
    li.append(name, bar, state)
    progress!.append(li)
    return { bar, state }
  }

  function send(file: File, shown: ReturnType<typeof row>, tries = 0): Promise<void> {
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest()
      xhr.open('POST', form!.action)
      xhr.setRequestHeader('accept', 'application/json')
      xhr.setRequestHeader('x-form-token', token())
      xhr.upload.addEventListener('progress', (e) => {
        if (e.lengthComputable) shown.bar.value = Math.round((e.loaded / e.total) * 100)
      })
      xhr.addEventListener('load', () => {
        let answer: Answer | undefined
        try {
          answer = JSON.parse(xhr.responseText) as Answer
        } catch {
          answer = undefined
        }
        // The store's uploads are all in flight (another tab, another person): wait as told, then again.
        if (xhr.status === 429 && tries < 5) {
          const wait = Number(xhr.getResponseHeader('retry-after')) || 1
          setTimeout(() => void send(file, shown, tries + 1).then(resolve), wait * 1000)
          return
        }
        swap(answer?.html)
        if (answer?.ok) {
          shown.bar.value = 100
          shown.state.textContent = words.uploaded ?? ''
          say(answer.announce)
        } else {
          // The bytes went up, the file was refused: a full bar would say the opposite.
          shown.bar.remove()
          shown.state.className = 'failed'
          shown.state.textContent = answer?.error ?? words.failed ?? ''
          say(shown.state.textContent)
        }
        resolve()
      })
      xhr.addEventListener('error', () => {
        shown.bar.remove()
        shown.state.className = 'failed'
        shown.state.textContent = words.failed ?? ''
        resolve()
      })
      const body = new FormData()
      body.append('file', file)
      xhr.send(body)
    })
  }

  async function uploadAll(files: File[]) {
    if (!files.length) return
    progress!.hidden = false
    const rows = files.map((f) => [f, row(f)] as const)
    for (const [file, shown] of rows) await send(file, shown)
  }

  input.addEventListener('change', () => {
    const files = [...(input.files ?? [])]
    input.value = ''
    void uploadAll(files)
  })
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    const files = [...(input.files ?? [])]
    input.value = ''
    void uploadAll(files)
  })
  form.addEventListener('dragover', (e) => {
    if (![...(e.dataTransfer?.types ?? [])].includes('Files')) return
    e.preventDefault()
    form.classList.add('over')
  })
  form.addEventListener('dragleave', () => form.classList.remove('over'))
  form.addEventListener('drop', (e) => {
    if (!e.dataTransfer?.files.length) return
    e.preventDefault()
    form.classList.remove('over')
    void uploadAll([...e.dataTransfer.files])
  })
}
