/** The activity line of an API write (a key's or a connected app's), from the route's declaration. */
import type { ActivityNote } from '../kernel/context'
import { recordName, type OwnedTable } from './access'

/**
 * The activity line of an API write: POST creates, PUT updates, DELETE deletes (a POST to a
 * sub-path, e.g. …/retry, is named by it); the record is the route's owned table, else the
 * scope's resource; its id the path's `:id` (a create's comes from the write's result).
 */
export function activityNote(
  method: string,
  path: string,
  scope: string | null,
  owns: OwnedTable | undefined,
  id: string | undefined,
  actor: string,
): ActivityNote {
  const resource = owns
    ? recordName(owns).replace(/ /g, '_')
    : (scope ?? 'store').split(':')[0]!.replace(/ies$/, 'y').replace(/s$/, '')
  const last = path.split('/').at(-1) ?? ''
  const verb =
    method === 'DELETE'
      ? 'delete'
      : method === 'PUT' || method === 'PATCH'
        ? 'update'
        : id !== undefined && last !== id && /^[a-z-]+$/.test(last)
          ? last
          : 'create'
  return id === undefined
    ? { actor, verb, recordType: resource }
    : { actor, verb, recordType: resource, recordId: decodeId(id) }
}

export function decodeId(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw // a malformed escape names no record
  }
}
