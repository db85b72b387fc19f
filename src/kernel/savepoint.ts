/** A savepoint inside a write transaction: one unit of a batch that can fail alone (the checkout batcher's orders). */
import type { Database } from 'bun:sqlite'
import type { Db } from '../db/client'
import type { Effects } from './write'

/**
 * Inside a transaction: `fn` in a savepoint. When it throws, only its own writes and effects
 * roll back; the error is returned, not thrown.
 */
export function savepoint<T>(
  db: Db,
  effects: Effects,
  fn: () => T,
): { ok: true; value: T } | { ok: false; error: unknown } {
  const s = savepointStatements(db.$client)
  const mark = effects.mark()
  s.begin.run()
  try {
    const value = fn()
    s.release.run()
    return { ok: true, value }
  } catch (error) {
    s.rollback.run()
    s.release.run()
    effects.rollbackTo(mark)
    return { ok: false, error }
  }
}

type SavepointStatements = Record<'begin' | 'release' | 'rollback', ReturnType<Database['prepare']>>
/** Prepared once per connection: the checkout runs a savepoint per order. */
const savepoints = new WeakMap<Database, SavepointStatements>()
function savepointStatements(client: Database): SavepointStatements {
  let s = savepoints.get(client)
  if (!s) {
    s = {
      begin: client.prepare('SAVEPOINT unit'),
      release: client.prepare('RELEASE unit'),
      rollback: client.prepare('ROLLBACK TO unit'),
    }
    savepoints.set(client, s)
  }
  return s
}
