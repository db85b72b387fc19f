/**
 * `user:invite`, `user:list`, `user:remove`, `user:reset`:
 * the operator's way into the panel, and recovery when a person is locked out. Links are
 * printed once (only their hash is stored); they point at PUBLIC_URL, else https://localhost:PORT.
 */
import { ctxFor } from '../kernel/context'
import type { Config } from '../config'
import { NotFound } from '../lib/errors'
import { inviteToStore, issueReset, listMembers, memberByEmail, removeMember, ROLES } from '../modules/people'
import { findStore } from '../modules/platform-stores'
import { appendEventTx } from '../modules/webhooks'
import { UsageError, type Flags, type Options } from './args'
import type { Command } from './command'

const str = (flags: Flags, name: string): string | undefined =>
  typeof flags[name] === 'string' ? (flags[name] as string) : undefined
const need = (value: string | undefined, what: string): string => {
  if (!value) throw new UsageError(`missing ${what}`)
  return value
}

/** Where links point: the public origin, or this machine's HTTPS port. */
export const panelOrigin = (config: Config): string =>
  config.publicUrl ? new URL(config.publicUrl).origin : `https://localhost:${config.port}`
export const joinUrl = (config: Config, token: string): string =>
  `${panelOrigin(config)}/admin/join?token=${encodeURIComponent(token)}`

const STORE: Options = { store: { type: 'string', value: '<store>', help: 'store id or slug (required)' } }
const EMAIL: Options = { email: { type: 'string', value: 'E', help: "the person's e-mail (required)" } }

export const USER_COMMANDS: Record<string, Command> = {
  'user:invite': {
    summary: 'invite a person to a store (a one-time link, 72 h)',
    options: {
      ...STORE,
      ...EMAIL,
      role: { type: 'string', value: ROLES.join('|'), help: 'role (default owner)' },
      name: { type: 'string', value: 'N', help: 'their name, filled in on the form' },
    },
    note: 'Send the link to the person (it works once, for 72 hours). It is not stored: only its hash is.',
    run: ({ db, clock, config }, _p, f) => {
      const role = str(f, 'role') ?? 'owner'
      if (!(ROLES as readonly string[]).includes(role))
        throw new UsageError(`--role must be one of ${ROLES.join(', ')} (got '${role}')`)
      const store = findStore({ ctx: { db }, input: { ref: need(str(f, 'store'), '--store') } })
      const ctx = ctxFor({ db, clock, config, appendEvent: appendEventTx }, store, { kind: 'cli' })
      const issued = inviteToStore({
        ctx,
        input: { email: need(str(f, 'email'), '--email'), role, name: str(f, 'name') },
      })
      return {
        id: issued.id,
        email: issued.email,
        role: issued.role,
        url: joinUrl(config, issued.token),
        expiresAt: issued.expiresAt,
      }
    },
  },
  'user:list': {
    summary: "list a store's people and their roles",
    options: STORE,
    run: ({ db, clock, config }, _p, f) => {
      const store = findStore({ ctx: { db }, input: { ref: need(str(f, 'store'), '--store') } })
      return { data: listMembers({ ctx: { db, clock, config }, input: { storeId: store.id } }) }
    },
  },
  'user:remove': {
    summary: 'remove a person from a store (never its last owner)',
    options: { ...STORE, ...EMAIL },
    run: ({ db, clock, config }, _p, f) => {
      const store = findStore({ ctx: { db }, input: { ref: need(str(f, 'store'), '--store') } })
      const m = memberByEmail({ ctx: { db }, input: { storeId: store.id, email: need(str(f, 'email'), '--email') } })
      if (!m) throw new NotFound('Team member')
      const ctx = ctxFor({ db, clock, config, appendEvent: appendEventTx }, store, { kind: 'cli' })
      try {
        return removeMember({ ctx, input: { membershipId: m.id } })
      } catch (e) {
        // Refusing to leave a store without an owner is a usage mistake: exit 2, nothing done.
        if ((e as { details?: { reason?: string } }).details?.reason === 'last_owner')
          throw new UsageError('refusing to remove the last owner of the store')
        throw e
      }
    },
  },
  'user:reset': {
    summary: 'a one-time link to set a new password; ends every session of the person',
    options: {
      ...EMAIL,
      'clear-two-step': { type: 'boolean', help: 'also remove their two-step sign-in and passkeys (a lost phone)' },
    },
    note:
      'Every session of this person has ended, and their password and passkeys stop working until the link ' +
      'is used. Send them the link (it works once, for 72 hours).',
    run: ({ db, clock, config }, _p, f) => {
      const r = issueReset({
        ctx: { db, clock, config },
        input: {
          email: need(str(f, 'email'), '--email'),
          clearTwoStep: f['clear-two-step'] === true,
          createdBy: 'cli',
        },
      })
      return { id: r.userId, email: r.email, url: joinUrl(config, r.token), expiresAt: r.expiresAt }
    },
  },
}
