/**
 * The store's `whatsappTemplate` — the message a customer sends the store after checkout — and
 * the wa.me link it travels in. A placeholder has a name in each store language (English,
 * Spanish, Portuguese), and every name is accepted whatever the store's language, so a template
 * written from an English guide works in a Spanish store.
 */
import { boundedMemo } from './memo'
export const PLACEHOLDERS = {
  store: ['store', 'tienda', 'loja'],
  customer: ['customer', 'nombre', 'cliente'],
  items: ['items', 'productos', 'itens'],
  total: ['total'],
  order: ['order', 'pedido'],
  shipping: ['shipping', 'envio', 'frete'],
  discount: ['discount', 'descuento', 'desconto'],
  address: ['address', 'direccion', 'endereco'],
  status_url: ['status_url'],
} as const satisfies Record<string, readonly string[]>
export type Placeholder = keyof typeof PLACEHOLDERS

/** Every accepted name → what it stands for. */
const MEANING = new Map<string, Placeholder>(
  Object.entries(PLACEHOLDERS).flatMap(([key, names]) => names.map((n) => [n, key as Placeholder] as const)),
)
/** Every accepted name, braced, for messages that list them: "{store}, {tienda}, …". */
export const PLACEHOLDER_NAMES = [...MEANING.keys()].map((n) => `{${n}}`)

/**
 * Each store language has its own default, in its own names. A line whose placeholders are all
 * empty (no shipping option, no discount, no address) is left out of the message, so the
 * default carries every figure the order has and none it lacks.
 */
export const DEFAULT_TEMPLATES = {
  es:
    'Hola {tienda}, soy {nombre}. Quiero hacer el pedido {pedido}:\n{productos}\nEnvío: ' +
    '{envio}\nDescuento: {descuento}\nTotal: {total}\nDirección: {direccion}',
  en:
    'Hi {store}, this is {customer}. I would like to place order {order}:\n{items}\nShipping: ' +
    '{shipping}\nDiscount: {discount}\nTotal: {total}\nAddress: {address}',
  pt:
    'Olá {loja}, sou {cliente}. Quero fazer o pedido {pedido}:\n{itens}\nFrete: {frete}\nDesconto: ' +
    '{desconto}\nTotal: {total}\nEndereço: {endereco}',
} as const
export const DEFAULT_TEMPLATE = DEFAULT_TEMPLATES.es

const BRACED = /\{([^{}]*)\}/g

/** Placeholders in the template that aren't known, e.g. ['{precio}'], each once; empty when valid. */
export function unknownPlaceholders(template: string): string[] {
  const bad = [...template.matchAll(BRACED)].map((m) => m[1]!).filter((name) => !MEANING.has(name))
  return [...new Set(bad)].map((name) => `{${name}}`)
}

/** Whether the template places the order's status link itself (otherwise the link follows the text). */
export const placesStatusUrl = (template: string | null): boolean => template?.includes('{status_url}') ?? false

/**
 * A template line read once: its text between placeholders, the placeholder each gap stands for
 * (an unknown name stays as written: it is text), and whether it is kept whatever the values (no
 * placeholder, or an unknown one); otherwise it is kept when one of its placeholders is not empty.
 */
interface Line {
  texts: string[]
  keys: Placeholder[]
  always: boolean
}

function readLine(line: string): Line {
  const texts: string[] = []
  const keys: Placeholder[] = []
  let text = ''
  let at = 0
  let unknown = false
  for (const m of line.matchAll(BRACED)) {
    const key = MEANING.get(m[1]!)
    text += line.slice(at, m.index)
    at = m.index + m[0].length
    if (key === undefined) {
      unknown = true
      text += m[0]
      continue
    }
    texts.push(text)
    keys.push(key)
    text = ''
  }
  texts.push(text + line.slice(at))
  return { texts, keys, always: unknown || keys.length === 0 }
}

/** Templates read so far, by their text: a store's own and the defaults; at most 256. */
const linesOf = boundedMemo(
  256,
  (template: string) => template,
  (template: string): Line[] => template.split('\n').map(readLine),
)

/**
 * The message: each placeholder replaced by its value, a line whose placeholders are all empty
 * left out. Every checkout renders one, so the template is read once (`linesOf`), not per order.
 */
export function renderTemplate(
  template: string | null,
  values: Record<Placeholder, string>,
  language: keyof typeof DEFAULT_TEMPLATES = 'es',
): string {
  let out = ''
  let first = true
  for (const line of linesOf(template ?? DEFAULT_TEMPLATES[language])) {
    if (!line.always && line.keys.every((k) => values[k] === '')) continue
    let text = line.texts[0]!
    for (let i = 0; i < line.keys.length; i++) text += values[line.keys[i]!] + line.texts[i + 1]!
    out += first ? text : `\n${text}`
    first = false
  }
  return out
}

/** https://wa.me/<digits>?text=<message>; null when the store has no WhatsApp number. */
export function whatsappUrl(e164: string | null, message: string): string | null {
  if (!e164) return null
  return `https://wa.me/${e164.replace(/\D/g, '')}?text=${encodeURIComponent(message)}`
}
