/**
 * Read verbs for a module that builds product views of its own (the storefront, the public store
 * read): the raw reads stay in this module, behind `{ ctx, input }`. Each takes the public's
 * context (only its `db`); the store, where one is needed, is given in `ctx`.
 */
import type { Fragments } from '../../db/fragments'
import type { Store } from '../../db/schema'
import type { PublicCtx } from '../../kernel/context'
import { productFragments } from './fragments'
import { imagesOf, type ImageView } from './images/views'
import { activeVariantsOf, type VariantFields } from './sql'

/** The active variants and the pictures of `input.ids`, by product id (one query each). */
export function productParts({
  ctx,
  input,
}: {
  ctx: Pick<PublicCtx, 'db'>
  input: { ids: string[]; publicUrl?: string }
}): { variants: Map<string, VariantFields[]>; images: Map<string, ImageView[]> } {
  return {
    variants: activeVariantsOf(ctx.db.$client, input.ids),
    images: imagesOf(ctx.db, input.ids, input.publicUrl),
  }
}

/** Each id's product view as JSON, in `input.ids` order, from the store's cached fragments (db/fragments.ts). */
export function productViewFragments({
  ctx,
  input,
  cache,
}: {
  ctx: Pick<PublicCtx, 'db'> & { store: Pick<Store, 'id' | 'currency'> }
  input: { ids: string[]; publicUrl: string | undefined }
  cache: Fragments
}): string[] {
  return productFragments(ctx.db, ctx.store, input.publicUrl, input.ids, cache)
}
