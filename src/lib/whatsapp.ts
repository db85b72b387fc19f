/**
 * The store's `whatsappTemplate` (contract: shortcodes {tienda} store name, {productos} order
 * lines, {total}, {nombre} customer name) and the wa.me link a storefront hands the order to.
 */
export const SHORTCODES = ['tienda', 'productos', 'total', 'nombre'] as const
export type Shortcode = (typeof SHORTCODES)[number]

/** Each store language has its own default; the shortcodes stay Spanish. */
export const DEFAULT_TEMPLATES = {
  es: 'Hola {tienda}, soy {nombre}. Quiero hacer este pedido:\n{productos}\nTotal: {total}',
  en: 'Hi {tienda}, this is {nombre}. I would like to place this order:\n{productos}\nTotal: {total}',
  pt: 'Olá {tienda}, sou {nombre}. Quero fazer este pedido:\n{productos}\nTotal: {total}',
} as const
export const DEFAULT_TEMPLATE = DEFAULT_TEMPLATES.es

/** Shortcodes in the template that aren't known, e.g. ['{precio}']; empty when valid. */
export function unknownShortcodes(template: string): string[] {
  return [...template.matchAll(/\{([^{}]*)\}/g)]
    .map((m) => m[1]!)
    .filter((c) => !(SHORTCODES as readonly string[]).includes(c))
    .map((c) => `{${c}}`)
}

export function renderTemplate(
  template: string | null,
  values: Record<Shortcode, string>,
  language: keyof typeof DEFAULT_TEMPLATES = 'es',
): string {
  return (template ?? DEFAULT_TEMPLATES[language]).replace(
    /\{(tienda|productos|total|nombre)\}/g,
    (_, k: Shortcode) => values[k],
  )
}

/** https://wa.me/<digits>?text=<message>; null when the store has no WhatsApp number. */
export function whatsappUrl(e164: string | null, message: string): string | null {
  if (!e164) return null
  return `https://wa.me/${e164.replace(/\D/g, '')}?text=${encodeURIComponent(message)}`
}
