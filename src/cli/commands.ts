/**
 * The admin commands of the contract's table. Each takes parsed arguments and returns the JSON
 * object `--json` prints; they call the same services as the HTTP API.
 */
import type { Db } from '../db/client'
import type { Clock } from '../lib/time'
import { iso, parseIso } from '../lib/time'
import { parseScopes } from '../lib/scopes'
import { createKey, listKeys, revokeKey } from '../modules/keys/service'
import {
  createStore,
  findStore,
  listStores,
  reinstateStore,
  setPlan,
  storeView,
  suspendStore,
  SUSPEND_REASONS,
  type SuspendReason,
} from '../modules/stores/service'
import type { Store } from '../db/schema'

export class UsageError extends Error {}

export interface CliEnv {
  db: Db
  clock: Clock
}

type Flags = Record<string, string | true>
type Command = { usage: string; run(env: CliEnv, positional: string[], flags: Flags): Record<string, unknown> }

const str = (flags: Flags, name: string): string | undefined => {
  const v = flags[name]
  if (v === true) throw new UsageError(`--${name} needs a value`)
  return v
}
const need = (value: string | undefined, what: string): string => {
  if (!value) throw new UsageError(`missing ${what}`)
  return value
}

/** The CLI's store summary (contract: id, slug, name, plan, currency, status). */
export const storeSummary = (s: Store) => {
  const v = storeView(s)
  return { id: v.id, slug: v.slug, name: v.name, plan: v.plan, currency: v.currency, status: v.status, isPublished: v.isPublished, createdAt: v.createdAt }
}

export const COMMANDS: Record<string, Command> = {
  'store:create': {
    usage: 'store:create --name N [--slug S] [--plan free|pro|lifetime] [--currency USD] [--whatsapp +E164]',
    run: ({ db, clock }, _p, f) =>
      storeSummary(createStore(db, clock, { name: need(str(f, 'name'), '--name'), slug: str(f, 'slug'), plan: str(f, 'plan'), currency: str(f, 'currency'), whatsapp: str(f, 'whatsapp') })),
  },
  'store:list': {
    usage: 'store:list',
    run: ({ db }) => ({ data: listStores(db).map(storeSummary) }),
  },
  'store:plan': {
    usage: 'store:plan <store> <plan>',
    run: ({ db, clock }, [store, plan]) => storeSummary(setPlan(db, clock, need(store, '<store>'), need(plan, '<plan>'))),
  },
  'store:suspend': {
    usage: 'store:suspend <store> [--reason unpaid|refund|chargeback]',
    run: ({ db, clock }, [ref], f) => {
      const reason = (str(f, 'reason') ?? 'manual') as SuspendReason
      if (!SUSPEND_REASONS.includes(reason)) throw new UsageError(`--reason must be one of ${SUSPEND_REASONS.join(', ')}`)
      return { ...storeSummary(suspendStore(db, clock, findStore(db, need(ref, '<store>')).id, reason)), reason }
    },
  },
  'store:reinstate': {
    usage: 'store:reinstate <store>',
    run: ({ db, clock }, [ref]) => storeSummary(reinstateStore(db, clock, findStore(db, need(ref, '<store>')).id)),
  },
  'key:create': {
    usage: 'key:create --store <store> --scopes a:read,b:write|all [--name L] [--expires-at ISO]',
    run: ({ db, clock }, _p, f) => {
      const store = findStore(db, need(str(f, 'store'), '--store'))
      let scopes: string[]
      try {
        scopes = parseScopes(need(str(f, 'scopes'), '--scopes'))
      } catch (e) {
        throw new UsageError((e as Error).message)
      }
      const rawExpiry = str(f, 'expires-at')
      const expiresAt = rawExpiry === undefined ? null : parseIso(rawExpiry)
      if (expiresAt === undefined) throw new UsageError('--expires-at must be an ISO 8601 date-time')
      return { ...createKey(db, clock, { storeId: store.id, scopes, name: str(f, 'name'), expiresAt }), storeId: store.id }
    },
  },
  'key:list': {
    usage: 'key:list --store <store>',
    run: ({ db }, _p, f) => ({ data: listKeys(db, findStore(db, need(str(f, 'store'), '--store')).id) }),
  },
  'key:revoke': {
    usage: 'key:revoke <keyId>',
    run: ({ db, clock }, [id]) => revokeKey(db, clock, need(id, '<keyId>')),
  },
}

export const nowIso = (clock: Clock) => iso(clock.now())
