/**
 * Read verbs over the people look-ups (lookups.ts, which the door keeps to itself): a person, their
 * stores, a store's member by e-mail. Each takes only the connection of the context it names.
 */
import type { Membership, User } from '../../db/schema'
import type { OperatorCtx } from '../../kernel/context'
import type { PeopleCtx } from './context'
import { membershipByEmail, storesOf } from './lookups'
import { userByEmail } from './lookups'

/** The person with that e-mail (any case), or undefined. Takes a person's `PeopleCtx`. */
export const personByEmail = ({
  ctx,
  input,
}: {
  ctx: Pick<PeopleCtx, 'db'>
  input: { email: string }
}): User | undefined => userByEmail(ctx.db, input.email)

/** The person's stores and roles, oldest membership first (the default store at sign-in). Takes a `PeopleCtx`. */
export const storesOfPerson = ({ ctx, input }: { ctx: Pick<PeopleCtx, 'db'>; input: { userId: string } }) =>
  storesOf(ctx.db, input.userId)

/** The store's membership of the person with that e-mail, or undefined. Takes the operator's ctx (the CLI). */
export const memberByEmail = ({
  ctx,
  input,
}: {
  ctx: Pick<OperatorCtx, 'db'>
  input: { storeId: string; email: string }
}): Membership | undefined => membershipByEmail(ctx.db, input.storeId, input.email)
