/**
 * A browser's panel session for the CSV benches: one cookie jar, every call same-origin with the
 * session cookie, the form token read from the page, and the catalog import's two steps.
 */
export interface PanelCall {
  res: Response
  text: string
}

export function panelSession(origin: string) {
  const tls = { rejectUnauthorized: false }
  let cookie = ''
  const call = async (path: string, init: RequestInit = {}): Promise<PanelCall> => {
    const res = await fetch(origin + path, {
      ...init,
      redirect: 'manual',
      headers: { origin, cookie, ...(init.headers as Record<string, string>) },
      tls,
    } as RequestInit)
    const sid = res.headers.getSetCookie().find((c) => c.startsWith('__Host-sid='))
    if (sid) cookie = sid.split(';')[0]!
    return { res, text: await res.text() }
  }
  const token = (text: string) => /name="_csrf" value="([^"]+)"/.exec(text)![1]!
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  })
  return {
    call,
    signIn: (email: string, password: string) => call('/admin/login', form({ email, password })),
    /** The import's dry run of `csv` (the staged file's check page). */
    async upload(csv: string): Promise<PanelCall> {
      const page = await call('/admin/products/import')
      const body = new FormData()
      body.append('_csrf', token(page.text))
      body.append('file', new File([csv], 'catalog.csv', { type: 'text/csv' }))
      return call('/admin/products/import', { method: 'POST', body })
    },
    /** Applies the dry run whose page is `text`. */
    apply: (text: string) =>
      call(
        '/admin/products/import/apply',
        form({
          _csrf: token(text),
          id: /name="id" value="([^"]+)"/.exec(text)![1]!,
          hash: /name="hash" value="([^"]+)"/.exec(text)![1]!,
        }),
      ),
  }
}
