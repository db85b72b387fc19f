/**
 * HTML by tagged template that escapes every interpolation. The one way to emit markup that is
 * not escaped is `raw()` — grep for it: each call must hold only text the code itself built.
 * Arrays are joined (each item escaped unless it is already Html), null/undefined/false render
 * nothing, so `${cond && html`…`}` reads naturally.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const NEEDS_ESCAPE = /[&<>"']/g

export function escapeHtml(s: string): string {
  return s.replace(NEEDS_ESCAPE, (c) => ESCAPES[c]!)
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[]

function render(v: Part): string {
  if (v === null || v === undefined || v === false || v === true) return ''
  if (v instanceof Html) return v.value
  if (Array.isArray(v)) return v.map(render).join('')
  return escapeHtml(String(v))
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!
  return new Html(out)
}

/** Markup the code built itself (never store text). The only unescaped path: keep it greppable. */
export const raw = (markup: string): Html => new Html(markup)

/**
 * JSON inside `<script type="application/ld+json">` or a JSON data block: `<` is written as
 * `\u003c`, so a product named `</script><script>…` cannot close the element; U+2028/2029 too.
 */
export function jsonForScript(value: unknown): Html {
  return raw(
    JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  )
}
