import { parseIso } from '../lib/time'
import { parseScopes } from '../lib/scopes'
import { createKey, listKeys, revokeKey } from '../modules/keys'
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
} from '../modules/platform-stores'
import { PLANS, type Store } from '../modules/platform-stores'
import {
  invoiceView,
  listInvoices,
  openInvoice,
  recordChargeback,
  recordFailedCharge,
  recordPayment,
  recordRefund,
  resultView,
} from '../modules/billing'
import { UsageError, type Flags, type Options } from './args'
import type { CliEnv, Command } from './command'

export type { CliEnv, Command }
import { BACKUP_COMMANDS } from './backup-commands'
import { USER_COMMANDS } from './user-commands'

export { UsageError }

const str = (flags: Flags, name: string): string | undefined => {
  const v = flags[name]
  return typeof v === 'string' ? v : undefined
}
const need = (value: string | undefined, what: string): string => {
  if (!value) throw new UsageError(`missing ${what}`)
  return value
}
const oneOf = <T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined => {
  if (value !== undefined && !allowed.includes(value as T))
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got '${value}')`)
  return value as T | undefined
}

/** The CLI's store summary (contract: id, slug, name, plan, currency, status). */
export const storeSummary = (s: Store) => {
  const v = storeView(s)
  return {
    id: v.id,
    slug: v.slug,
    name: v.name,
    plan: v.plan,
    currency: v.currency,
    status: v.status,
    isPublished: v.isPublished,
    createdAt: v.createdAt,
  }
}

const STORE_FLAG: Options = { store: { type: 'string', value: '<store>', help: 'store id or slug (required)' } }

export const COMMANDS: Record<string, Command> = {
  'store:create': {
    summary: 'create a store (published, plan free unless --plan)',
    options: {
      name: { type: 'string', value: 'N', help: 'display name (required)' },
      slug: { type: 'string', value: 'S', help: 'URL slug (default: from the name)' },
      plan: { type: 'string', value: PLANS.join('|'), help: 'plan (default free)' },
      currency: { type: 'string', value: 'USD', help: 'ISO 4217 currency (default USD)' },
      whatsapp: { type: 'string', value: '+E164', help: 'WhatsApp number for orders' },
    },
    run: ({ db, clock }, _p, f) => {
      const name = need(str(f, 'name'), '--name')
      const plan = oneOf(str(f, 'plan'), PLANS, '--plan')
      return storeSummary(
        createStore({
          ctx: { db, clock, actor: 'cli' },
          input: { name, slug: str(f, 'slug'), plan, currency: str(f, 'currency'), whatsapp: str(f, 'whatsapp') },
        }),
      )
    },
  },
  'store:list': {
    summary: 'list every store',
    run: ({ db }) => ({ data: listStores({ ctx: { db } }).map(storeSummary) }),
  },
  'store:plan': {
    summary: `change a store's plan (${PLANS.join(', ')})`,
    args: ['<store>', '<plan>'],
    run: ({ db, clock }, [store, plan]) =>
      storeSummary(
        setPlan({
          ctx: { db, clock, actor: 'cli' },
          input: { ref: need(store, '<store>'), plan: need(plan, '<plan>') },
        }),
      ),
  },
  'store:suspend': {
    summary: 'suspend a store (its keys get 402)',
    args: ['<store>'],
    options: {
      reason: {
        type: 'string',
        value: SUSPEND_REASONS.filter((r) => r !== 'manual').join('|'),
        help: 'why (default manual)',
      },
    },
    run: ({ db, clock }, [ref], f) => {
      const reason = oneOf(str(f, 'reason'), SUSPEND_REASONS, '--reason') ?? ('manual' as SuspendReason)
      return {
        ...storeSummary(
          suspendStore({
            ctx: { db, clock, actor: 'cli' },
            input: { storeId: findStore({ ctx: { db }, input: { ref: need(ref, '<store>') } }).id, reason },
          }),
        ),
        reason,
      }
    },
  },
  'store:reinstate': {
    summary: 'reinstate a suspended store',
    args: ['<store>'],
    run: ({ db, clock }, [ref]) =>
      storeSummary(
        reinstateStore({
          ctx: { db, clock, actor: 'cli' },
          input: { storeId: findStore({ ctx: { db }, input: { ref: need(ref, '<store>') } }).id },
        }),
      ),
  },
  'key:create': {
    summary: 'create an API key (the secret is shown once)',
    options: {
      ...STORE_FLAG,
      scopes: { type: 'string', value: 'a:read,b:write|all', help: 'comma-separated scopes, or all (required)' },
      name: { type: 'string', value: 'L', help: 'a label' },
      'expires-at': { type: 'string', value: 'ISO', help: 'expiry, an ISO 8601 date-time in the future' },
    },
    note: 'The key above is shown once: store it now, it cannot be shown again (key:list shows its prefix only).',
    run: ({ db, clock }, _p, f) => {
      const storeRef = need(str(f, 'store'), '--store')
      let scopes: string[]
      try {
        scopes = parseScopes(need(str(f, 'scopes'), '--scopes'))
      } catch (e) {
        if (e instanceof UsageError) throw e
        throw new UsageError((e as Error).message)
      }
      const rawExpiry = str(f, 'expires-at')
      const expiresAt = rawExpiry === undefined ? null : parseIso(rawExpiry)
      if (expiresAt === undefined) throw new UsageError('--expires-at must be an ISO 8601 date-time')
      // A key born expired is always a mistake (a wrong year, a date meant as a duration).
      if (expiresAt !== null && expiresAt <= clock.now())
        throw new UsageError(`--expires-at ${rawExpiry} is in the past`)
      const store = findStore({ ctx: { db }, input: { ref: storeRef } })
      // The key and its activity line commit together (createKey, with the CLI as its actor).
      const created = createKey({
        ctx: { db, clock, actor: 'cli' },
        input: { storeId: store.id, scopes, name: str(f, 'name'), expiresAt },
      })
      return { ...created, storeId: store.id }
    },
  },
  'key:list': {
    summary: "list a store's keys (prefixes only)",
    options: STORE_FLAG,
    run: ({ db }, _p, f) => ({
      data: listKeys({
        ctx: { db },
        input: { storeId: findStore({ ctx: { db }, input: { ref: need(str(f, 'store'), '--store') } }).id },
      }),
    }),
  },
  'key:revoke': {
    summary: 'revoke a key (idempotent)',
    args: ['<keyId>'],
    run: ({ db, clock }, [id]) => revokeKey({ ctx: { db, clock, actor: 'cli' }, input: { id: need(id, '<keyId>') } }),
  },
  'invoice:create': {
    summary: 'open an invoice for a store',
    args: ['<store>'],
    options: {
      amount: { type: 'string', value: 'N', help: 'amount in major units (required)' },
      currency: { type: 'string', value: 'USD', help: 'currency (default USD)' },
      'max-attempts': { type: 'string', value: '4', help: 'card attempts before suspension' },
      'due-at': { type: 'string', value: 'ISO', help: 'due date-time' },
    },
    run: (env, [ref], f) => {
      const store = findStore({ ctx: { db: env.db }, input: { ref: need(ref, '<store>') } })
      const amount = Number(need(str(f, 'amount'), '--amount'))
      const rawMax = str(f, 'max-attempts')
      const maxAttempts = rawMax === undefined ? undefined : Number(rawMax)
      const rawDue = str(f, 'due-at')
      const dueAt = rawDue === undefined ? undefined : parseIso(rawDue)
      if (rawDue !== undefined && dueAt === undefined) throw new UsageError('--due-at must be an ISO 8601 date-time')
      return resultView(
        openInvoice({
          ctx: { ...env, actor: 'cli' },
          input: { storeId: store.id, amount, currency: str(f, 'currency'), maxAttempts, dueAt },
        }),
      )
    },
  },
  'invoice:fail': {
    summary: 'record a failed card charge (schedules the next retry)',
    args: ['<invoiceId>'],
    run: (env, [id]) =>
      resultView(recordFailedCharge({ ctx: { ...env, actor: 'cli' }, input: { invoiceId: need(id, '<invoiceId>') } })),
  },
  'invoice:pay': {
    summary: 'record payment (reinstates a store suspended for billing)',
    args: ['<invoiceId>'],
    run: (env, [id]) =>
      resultView(recordPayment({ ctx: { ...env, actor: 'cli' }, input: { invoiceId: need(id, '<invoiceId>') } })),
  },
  'invoice:refund': {
    summary: 'full refund (suspends the store)',
    args: ['<invoiceId>'],
    run: (env, [id]) =>
      resultView(recordRefund({ ctx: { ...env, actor: 'cli' }, input: { invoiceId: need(id, '<invoiceId>') } })),
  },
  'invoice:chargeback': {
    summary: 'record a chargeback (suspends the store)',
    args: ['<invoiceId>'],
    run: (env, [id]) =>
      resultView(recordChargeback({ ctx: { ...env, actor: 'cli' }, input: { invoiceId: need(id, '<invoiceId>') } })),
  },
  'invoice:list': {
    summary: "list a store's invoices",
    options: STORE_FLAG,
    run: ({ db }, _p, f) => ({
      data: listInvoices({
        ctx: { db },
        input: { storeId: findStore({ ctx: { db }, input: { ref: need(str(f, 'store'), '--store') } }).id },
      }).map(invoiceView),
    }),
  },
  ...BACKUP_COMMANDS,
  ...USER_COMMANDS,
}

/** `store:create --name N [--slug S] …` */
export function usageLine(name: string, c: Command): string {
  const opts = Object.entries(c.options ?? {}).map(([k, o]) =>
    o.help.includes('(required)') ? `--${k} ${o.value ?? ''}`.trim() : `[--${k}${o.value ? ` ${o.value}` : ''}]`,
  )
  return [name, ...(c.args ?? []), ...opts].join(' ')
}
