/** The catalog pages' words per panel language (the person's choice, as the shell decides). */
import type { PanelLanguage } from '../../i18n'
import { en, type CatalogWords } from './en'
import { es } from './es'
import { pt } from './pt'

export type { CatalogWords }
const WORDS: Record<PanelLanguage, CatalogWords> = { en, es, pt }
export const catalogWords = (lang: PanelLanguage): CatalogWords => WORDS[lang]
