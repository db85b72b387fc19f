/** The reviews module's raw SQL (db/sql.ts): the pending count the panel's badge polls. */
import type { Database } from 'bun:sqlite'

/** One indexed count of the store's reviews waiting for moderation. */
export const pendingReviewCount = (client: Database, storeId: string): number =>
  client
    .query<{ n: number }, [string]>("SELECT count(*) AS n FROM reviews WHERE store_id = ? AND status = 'pending'")
    .get(storeId)!.n
