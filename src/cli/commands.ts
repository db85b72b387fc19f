/**
 * The admin commands of the contract's table. Each takes parsed arguments and returns the JSON
 * object `--json` prints; they call the same services as the HTTP API.
 */
import type { Db } from '../db/client'
import type { Clock } from '../lib/time'
import { parseIso } from '../lib/time'
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
} from '../modules/platform-stores/service'
import type { Store } from '../db/schema'
import { invoiceView, listInvoices, openInvoice, recordChargeback, recordFailedCharge, recordPayment, recordRefund, resultView } from '../modules/billing/service'

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
      storeSummary(createStore({ db, clock }, { name: need(str(f, 'name'), '--name'), slug: str(f, 'slug'), plan: str(f, 'plan'), currency: str(f, 'currency'), whatsapp: str(f, 'whatsapp') })),
  },
  'store:list': {
    usage: 'store:list',
    run: ({ db }) => ({ data: listStores(db).map(storeSummary) }),
  },
  'store:plan': {
    usage: 'store:plan <store> <plan>',
    run: ({ db, clock }, [store, plan]) => storeSummary(setPlan({ db, clock }, need(store, '<store>'), need(plan, '<plan>'))),
  },
  'store:suspend': {
    usage: 'store:suspend <store> [--reason unpaid|refund|chargeback]',
    run: ({ db, clock }, [ref], f) => {
      const reason = (str(f, 'reason') ?? 'manual') as SuspendReason
      if (!SUSPEND_REASONS.includes(reason)) throw new UsageError(`--reason must be one of ${SUSPEND_REASONS.join(', ')}`)
      return { ...storeSummary(suspendStore({ db, clock }, findStore(db, need(ref, '<store>')).id, reason)), reason }
    },
  },
  'store:reinstate': {
    usage: 'store:reinstate <store>',
    run: ({ db, clock }, [ref]) => storeSummary(reinstateStore({ db, clock }, findStore(db, need(ref, '<store>')).id)),
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
      return { ...createKey({ db, clock }, { storeId: store.id, scopes, name: str(f, 'name'), expiresAt }), storeId: store.id }
    },
  },
  'key:list': {
    usage: 'key:list --store <store>',
    run: ({ db }, _p, f) => ({ data: listKeys(db, findStore(db, need(str(f, 'store'), '--store')).id) }),
  },
  'key:revoke': {
    usage: 'key:revoke <keyId>',
    run: ({ db, clock }, [id]) => revokeKey({ db, clock }, need(id, '<keyId>')),
  },
  'invoice:create': {
    usage: 'invoice:create <store> --amount N [--currency USD] [--max-attempts 4] [--due-at ISO]',
    run: (env, [ref], f) => {
      const store = findStore(env.db, need(ref, '<store>'))
      const amount = Number(need(str(f, 'amount'), '--amount'))
      const rawMax = str(f, 'max-attempts')
      const maxAttempts = rawMax === undefined ? undefined : Number(rawMax)
      const rawDue = str(f, 'due-at')
      const dueAt = rawDue === undefined ? undefined : parseIso(rawDue)
      if (rawDue !== undefined && dueAt === undefined) throw new UsageError('--due-at must be an ISO 8601 date-time')
      return resultView(openInvoice(env, { storeId: store.id, amount, currency: str(f, 'currency'), maxAttempts, dueAt }))
    },
  },
  'invoice:fail': {
    usage: 'invoice:fail <invoiceId>   (records a failed card charge; schedules the next retry)',
    run: (env, [id]) => resultView(recordFailedCharge(env, need(id, '<invoiceId>'))),
  },
  'invoice:pay': {
    usage: 'invoice:pay <invoiceId>   (records payment; reinstates a store suspended for billing)',
    run: (env, [id]) => resultView(recordPayment(env, need(id, '<invoiceId>'))),
  },
  'invoice:refund': {
    usage: 'invoice:refund <invoiceId>   (full refund; suspends the store)',
    run: (env, [id]) => resultView(recordRefund(env, need(id, '<invoiceId>'))),
  },
  'invoice:chargeback': {
    usage: 'invoice:chargeback <invoiceId>   (suspends the store)',
    run: (env, [id]) => resultView(recordChargeback(env, need(id, '<invoiceId>'))),
  },
  'invoice:list': {
    usage: 'invoice:list --store <store>',
    run: ({ db }, _p, f) => ({ data: listInvoices(db, findStore(db, need(str(f, 'store'), '--store')).id).map(invoiceView) }),
  },
}
