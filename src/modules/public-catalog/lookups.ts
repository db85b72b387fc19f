/**
 * Look-ups the storefront's pages make before they know the store: read verbs over this
 * module's raw statements (sql.ts), each taking the public's context (only its `db`). They
 * check nothing: the caller decides what a suspended or unpublished store shows.
 */
import type { Store } from '../../db/schema'
import type { PublicCtx } from '../../kernel/context'
import { productIdBySlugRow, storeBySlug as storeRowBySlug } from './sql'

/** The store behind a slug, whatever its state; undefined when none has it. */
export const storeBySlug = ({
  ctx,
  input,
}: {
  ctx: Pick<PublicCtx, 'db'>
  input: { slug: string }
}): Store | undefined => storeRowBySlug(ctx.db.$client, input.slug)

/** The id of the store's live (not deleted) product with that slug, active or not. */
export const productIdBySlug = ({
  ctx,
  input,
}: {
  ctx: Pick<PublicCtx, 'db'>
  input: { storeId: string; slug: string }
}): string | undefined => productIdBySlugRow(ctx.db.$client, input.storeId, input.slug)
