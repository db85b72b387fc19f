import path from 'node:path'

/** The repository's root: where `bun src/index.ts` runs from. */
export const ROOT = path.resolve(import.meta.dir, '../..')
