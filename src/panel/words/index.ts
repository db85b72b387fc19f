/**
 * The panel's words: one catalogue per language (en | es | pt), namespaced by what the words are
 * for (`w.common.save`, `w.orders.confirmAndMessage`). The person's own choice wins, then the
 * browser's Accept-Language, then the store's language (gate.ts decides; handlers and views get
 * the chosen catalogue as `w`). A sentence with a value is a function of that value: a page never
 * glues translated pieces into a sentence.
 */
import { en } from './en'
import { es } from './es'
import { pt } from './pt'
import type { Words } from './shape'

export type { Words }
export type PanelLanguage = 'en' | 'es' | 'pt'
export const PANEL_LANGUAGES: readonly PanelLanguage[] = ['en', 'es', 'pt']

const WORDS: Record<PanelLanguage, Words> = { en, es, pt }

export const isPanelLanguage = (l: unknown): l is PanelLanguage => l === 'en' || l === 'es' || l === 'pt'

/** The first of es/en/pt the browser asks for (by its Accept-Language order), if any. */
export function fromAcceptLanguage(header: string | null): PanelLanguage | undefined {
  if (!header) return undefined
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';')
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean)
      return { lang: tag!.trim().slice(0, 2).toLowerCase(), q: q === undefined ? 1 : Number(q), i }
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
  return ranked.map((x) => x.lang).find(isPanelLanguage)
}

/** A language's catalogue: the person's for the pages, the store's for what customers read. */
export const panelWords = (lang: PanelLanguage): Words => WORDS[lang]
