/**
 * The shop's pages as functions of what the services return (storefrontOf, listDirectory):
 * no query and no catalog rule here. Every piece of store text goes through `html` (escaped).
 *
 * `inStock` and `images` are optional on purpose: the inventory/images work adds them to the
 * public read. Absent `inStock` means available; absent `images` falls back to `imageUrl`.
 *
 * One file per page (catalog, product, cart, the small pages), the shared parts and the view types.
 */
export * from './types'
export { isAvailable, layout, pictureOf, sameOrigin } from './parts'
export * from './catalog'
export * from './product'
export * from './cart'
export * from './pages'
