/**
 * The panel's words, one catalogue per language (es | en | pt). The person's own choice wins,
 * then the browser's Accept-Language, then the store's language. A page never glues translated
 * pieces into a sentence: a sentence with a value is a function of that value.
 */
import { en, type PanelWords } from './en'
import { es } from './es'
import { pt } from './pt'

export type PanelLanguage = 'en' | 'es' | 'pt'
export const PANEL_LANGUAGES: readonly PanelLanguage[] = ['en', 'es', 'pt']

export type { PanelWords }

const WORDS: Record<PanelLanguage, PanelWords> = { en, es, pt }

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

export const panelWords = (lang: PanelLanguage): PanelWords => WORDS[lang]
