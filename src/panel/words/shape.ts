/**
 * The shape every language's catalogue has: the English one's, widened — each word a string, each
 * sentence with a value a function of that value. A catalogue typed `Words` that misses a word, or
 * has one English lacks, does not compile.
 */
import type { en } from './en'

type Widen<T> = T extends string
  ? string
  : T extends (...args: infer A) => infer R
    ? (...args: A) => Widen<R>
    : { [K in keyof T]: Widen<T[K]> }

export type Words = Widen<typeof en>
