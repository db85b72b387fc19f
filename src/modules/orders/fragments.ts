/**
 * Orders' list forms as cached JSON fragments (db/fragments.ts, docs/decisions/016): the order
 * list and the customer detail read their page's ids from SQLite, then concatenate each
 * order's serialized list view, building the missing ones in one query per table. An order's
 * list form changes only with its status (items, money and names are snapshots), so after a
 * checkout the next list rebuilds only the new order. The bodies are byte for byte what
 * `JSON.stringify` of the full build gives (tests/orders/fragments.test.ts).
 */
import type { Database } from 'bun:sqlite'
import type { Fragments } from '../../db/fragments'
import { listItemsOf, listOrdersByIds } from './sql'
import { orderListView } from './views'

/** Each id's `orderListView` as JSON, in `ids` order (ids of the store's orders only). */
export function orderFragments(client: Database, storeId: string, ids: string[], cache: Fragments): string[] {
  return cache.many(storeId, ids, (missing) => {
    const items = listItemsOf(client, missing)
    const built = new Map<string, string>()
    for (const o of listOrdersByIds(client, missing))
      built.set(o.id, JSON.stringify(orderListView(o, items.get(o.id) ?? [])))
    return built
  })
}
