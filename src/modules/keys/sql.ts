/** The keys module's raw SQL (db/sql.ts): last-use times, written behind by the gate. */
import type { Database } from 'bun:sqlite'

/** Records when each key was last used, in one transaction (the gate's usage flush, once a second). */
export function writeKeyUses(client: Database, uses: Iterable<readonly [keyId: string, at: number]>): void {
  const stmt = client.query('UPDATE api_keys SET last_used_at = ?1 WHERE id = ?2')
  client.transaction(() => {
    for (const [id, at] of uses) stmt.run(at, id)
  })()
}
