/**
 * The people module's raw SQL (db/sql.ts): the activity log's filter facets and slice-wise
 * pruning, expired sessions, the passkey count, and the roles open sessions hold now. Everything
 * else in the module is Drizzle.
 */
import type { Database } from 'bun:sqlite'

/** The distinct actors and record types of a store's log (at most 200 each). */
export function activityFacetRows(client: Database, storeId: string): { actors: string[]; recordTypes: string[] } {
  const actors = client
    .query<{ actor: string }, [string]>(
      'SELECT DISTINCT actor FROM activity WHERE store_id = ? ORDER BY actor LIMIT 200',
    )
    .all(storeId)
  const recordTypes = client
    .query<{ t: string }, [string]>(
      'SELECT DISTINCT record_type AS t FROM activity WHERE store_id = ? ORDER BY t LIMIT 200',
    )
    .all(storeId)
  return { actors: actors.map((r) => r.actor), recordTypes: recordTypes.map((r) => r.t) }
}

/** Deletes up to `limit` activity lines older than the cutoff; returns how many went. */
export const deleteActivityBefore = (client: Database, cutoff: number, limit: number): number =>
  client.run('DELETE FROM activity WHERE seq IN (SELECT seq FROM activity WHERE at < ? LIMIT ?)', [cutoff, limit])
    .changes

/**
 * Deletes sessions past an expiry: pending ones created before `pendingBefore`,
 * idle since `idleBefore`, or created before `absoluteBefore`.
 */
export function deleteExpiredSessions(
  client: Database,
  pendingBefore: number,
  idleBefore: number,
  absoluteBefore: number,
): void {
  client.run('DELETE FROM sessions WHERE (pending = 1 AND created_at < ?1) OR last_seen_at < ?2 OR created_at < ?3', [
    pendingBefore,
    idleBefore,
    absoluteBefore,
  ])
}

export const countPasskeys = (client: Database): number =>
  client.query<{ n: number }, []>('SELECT count(*) AS n FROM passkeys').get()!.n

/** Deletes one-time links that expired, or were used, before `before`. */
export const deleteInvitationsBefore = (client: Database, before: number): void => {
  client.run('DELETE FROM invitations WHERE expires_at < ?1 OR used_at < ?1', [before])
}

/** Each of `sessionIds` that is still a complete session, with its store and the role it holds there now. */
export function sessionRolesNow(
  client: Database,
  sessionIds: string[],
): { id: string; storeId: string; role: string }[] {
  return client
    .query<{ id: string; storeId: string; role: string }, [string]>(
      'SELECT s.id AS id, s.store_id AS storeId, m.role AS role FROM sessions s ' +
        'JOIN memberships m ON m.user_id = s.user_id AND m.store_id = s.store_id WHERE s.pending = 0 ' +
        'AND s.id IN (SELECT value FROM json_each(?1))',
    )
    .all(JSON.stringify(sessionIds))
}
