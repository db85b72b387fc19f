/**
 * Roles are sets of the API's scopes, plus what only an
 * owner manages. One table decides what a role may open in the panel, which links its
 * navigation shows, and what its URLs answer (403 when typed by hand).
 */
import { SCOPES, type Scope } from '../../lib/scopes'
import type { Role } from '../../db/schema'

export { ROLES, type Role } from '../../db/schema'

/** Owner-only areas that are not API scopes: the team, API keys and the activity log. */
export const MANAGE = ['team', 'keys', 'activity'] as const
export type Manage = (typeof MANAGE)[number]
export type Grant = Scope | Manage

/**
 * What a panel route needs: nothing (`anonymous`: sign-in and one-time links), a signed-in
 * person (`signedIn`: their account, sign out, the store switcher), a membership of the current,
 * unsuspended store (`member`: the dashboard), or a grant of their role there.
 */
export type PanelNeed = 'anonymous' | 'signedIn' | 'member' | Grant

const READS = SCOPES.filter((s) => s.endsWith(':read'))
const RW = (...names: string[]) => names.flatMap((n) => [`${n}:read`, `${n}:write`]) as Scope[]

export const ROLE_GRANTS: Record<Role, ReadonlySet<Grant>> = {
  owner: new Set<Grant>([...SCOPES, ...MANAGE]),
  staff: new Set<Grant>([
    ...RW('orders', 'products', 'categories', 'discounts', 'shipping', 'reviews'),
    'customers:read',
    'stats:read',
  ]),
  viewer: new Set<Grant>(READS.filter((s) => s !== 'webhooks:read')),
}

/** Pure and fail-closed, like hasScope: an unknown role grants nothing. */
export function roleHas(role: string, grant: Grant): boolean {
  return ROLE_GRANTS[role as Role]?.has(grant) ?? false
}

export const isRole = (r: unknown): r is Role => r === 'owner' || r === 'staff' || r === 'viewer'
