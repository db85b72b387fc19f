/**
 * The storefront's words in the store's `language` (es | en | pt). `client` holds the ones the
 * cart script shows; the page hands them to it in its data block, so the script itself has no
 * words and stays one cacheable file for every language.
 */
import type { Language } from '../../modules/store-settings'
import { en } from './en'
import { es } from './es'
import { pt } from './pt'
import type { Words } from './words'

export type { ReviewWords, Words } from './words'
export { formatDate, formatMoney, retryText } from './format'

export const WORDS: Record<Language, Words> = { en, es, pt }

export const wordsFor = (language: string | undefined): Words => WORDS[(language as Language) ?? 'en'] ?? en
