/** The bulk edit and CSV pages' words per panel language. */
import type { PanelLanguage } from '../../../i18n'
import { en, type BulkWords } from './en'
import { es } from './es'
import { pt } from './pt'

export type { BulkWords }
const WORDS: Record<PanelLanguage, BulkWords> = { en, es, pt }
export const bulkWords = (lang: PanelLanguage): BulkWords => WORDS[lang]
