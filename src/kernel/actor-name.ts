/**
 * The name an activity line keeps for its actor, read in the writing transaction: a person as
 * "Name (e-mail)" (or the e-mail when they have no name), a connected app as "<app> for <person>".
 * A later rename does not relabel history. Keys, the CLI and the system have no name to keep
 * (their labels never change): null.
 */
import { sql, type SQL } from 'drizzle-orm'
import { oauthClients, oauthGrants, users } from '../db/schema'

const personLabel = sql`CASE WHEN ${users.name} = '' THEN ${users.email}
  ELSE ${users.name} || ' (' || ${users.email} || ')' END`

export function actorNameOf(actor: string): SQL | null {
  if (actor.startsWith('user:')) return sql`(SELECT ${personLabel} FROM ${users} WHERE ${users.id} = ${actor.slice(5)})`
  if (actor.startsWith('app:'))
    return sql`(SELECT ${oauthClients.name} || ' for '
        || CASE WHEN ${users.name} = '' THEN ${users.email} ELSE ${users.name} END
      FROM ${oauthGrants}
      JOIN ${oauthClients} ON ${oauthClients.id} = ${oauthGrants.clientId}
      JOIN ${users} ON ${users.id} = ${oauthGrants.userId}
      WHERE ${oauthGrants.id} = ${actor.slice(4)})`
  return null
}
