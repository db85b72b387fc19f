/**
 * What one dispatcher tick claims, inside its transaction: first the outbox rows that can be
 * sent at once (moved into the log already claimed; a stuck store's moved aside in bounded
 * batches), then due log rows in rounds, fairly across stores and endpoints, within the lanes
 * (scheduling.ts) and the governor's budget (governor.ts). The dispatcher (the scheduling
 * shell) runs it and starts the sends after commit.
 */
import type { Config } from '../../config'
import type { Clock } from '../../lib/time'
import type { DeliveryGovernor } from './governor'
import type { FairShare } from './scheduling'
import type { SigningRow } from './sql'
import type { Claim, DeliveryStore } from './store'

/** A claimed row and its slot in the lanes. */
export interface Running {
  claim: Claim
  token: number
}

/** Outbox rows moved aside per tick past a stuck endpoint's: a bounded write, however long the backlog. */
const MOVE_BATCH = 256
/** Outbox rows looked at per tick for ones that can be sent at once. */
const OUTBOX_PEEK = 32

/** The dispatcher state a tick's plan reads and updates. */
export interface PlanState {
  readonly deps: { clock: Clock; config: Config }
  readonly store: DeliveryStore
  readonly lanes: FairShare
  readonly governor: DeliveryGovernor
  wantAll: boolean
  outboxPending: boolean
  readonly wantEndpoints: Set<string>
  /** Takes a lane slot for a claim of `hook` (released if the tick's transaction fails). */
  take(hook: SigningRow, at: number): number
  /** Runs another tick soon. */
  schedule(): void
  /** Runs another tick in `ms`. */
  deferPump(ms: number): void
}

/**
 * Inside pump's transaction: moves outbox rows into the log (claimed when they can go at
 * once), then claims due log rows fairly across the wanted endpoints, within the lanes and the
 * governor's budget.
 */
export function planClaims(d: PlanState): Running[] {
  const now = d.deps.clock.now()
  // The lanes run on real elapsed time (a test's fixed clock must not freeze them).
  const at = performance.now()
  const sweep = d.wantAll
  const budget = d.governor.available()
  const targets = new Set(d.wantEndpoints)
  if (sweep) {
    d.outboxPending = true
    for (const id of d.store.dueEndpoints(now)) targets.add(id)
  }
  d.wantAll = false
  d.wantEndpoints.clear()
  const lock = lockFor(d.deps.config.webhookTimeoutMs, now)
  const hooks = new Map<string, SigningRow | undefined>()
  const hookOf = (id: string) => {
    if (!hooks.has(id)) hooks.set(id, d.store.activeWebhook(id))
    return hooks.get(id)
  }
  const out: Running[] = []
  const claims: Claim[] = []
  let throttled = false
  let laneBound = false

  // Fresh events first: those that can be sent at once go straight from the outbox (one
  // write each); a stuck store's are moved aside to wait in the log.
  if (d.outboxPending) {
    const next = moveLimit(d, at, budget - out.length, hookOf)
    if (next.limit > 0) {
      const tokens: number[] = []
      const first = claims.length
      const { moved, waiting } = d.store.move(
        next.limit,
        (hook) => {
          // The same test as moveLimit's, now taking the slots.
          if (
            out.length + tokens.length >= budget ||
            d.lanes.stuck(hook.id, hook.storeId, at) ||
            d.lanes.room(hook.id, hook.storeId, at) <= 0
          )
            return null
          tokens.push(d.take(hook, at))
          return lock
        },
        claims,
        hooks,
      )
      claims.slice(first).forEach((c, i) => out.push({ claim: c, token: tokens[i]! }))
      for (const w of waiting) targets.add(w) // their turn comes in the rounds below
      if (moved < next.limit) d.outboxPending = false
      else if (next.aside) d.schedule() // more may wait behind: next tick, after these sends start
    } else if (next.blocked === 'empty') d.outboxPending = false
    else if (next.blocked === 'budget') throttled = true
    else laneBound = true
  }
  // Rounds: each endpoint in turn, least recently served store first (scheduling.ts), gets its
  // share of what is free (at least one send), and goes round again only while it has more due.
  let queue = d.lanes.order(targets, (id) => hookOf(id)?.storeId ?? '')
  while (queue.length > 0) {
    const again: string[] = []
    for (const [i, endpoint] of queue.entries()) {
      if (out.length >= budget) {
        throttled = true
        d.wantEndpoints.add(endpoint)
        continue
      }
      const hook = hookOf(endpoint)
      if (!hook) continue // inactive: its rows wait in the log until it is re-activated
      const room = d.lanes.room(endpoint, hook.storeId, at)
      if (room <= 0) {
        // Looked at again when a slot frees (its own completion, another's, or a demotion).
        d.wantEndpoints.add(endpoint)
        laneBound = true
        continue
      }
      const share = Math.max(1, Math.floor(d.lanes.fastRoom(at) / (queue.length - i)))
      const n = Math.min(room, share, budget - out.length)
      const before = claims.length
      const due = d.store.claimDue(hook, n, lock, now, sweep, claims)
      for (const c of claims.slice(before)) out.push({ claim: c, token: d.take(hook, at) })
      if (due === n && claims.length > before) again.push(endpoint) // it may have more
    }
    queue = again
  }
  d.lanes.nextRound()

  d.governor.take(out.length)
  if (throttled) d.deferPump(d.governor.msUntilNext())
  if (laneBound) {
    const ms = d.lanes.msUntilSlotFrees(at)
    if (Number.isFinite(ms)) d.deferPump(ms)
  }
  return out
}

/**
 * How many outbox rows to move this tick. Rows move while they can be sent at once (inserted
 * already claimed), up to the last such row among the next OUTBOX_PEEK; a row in front of it
 * whose endpoint has no free slot goes in `pending`. When none of those rows can be sent and
 * one of them belongs to an endpoint that is stuck (timing out, inactive, or of a store with
 * a hanging send), a
 * batch moves aside into the log (`aside`): the events behind it are reached and take their
 * fair turn there. Otherwise nothing moves, and the busy endpoints' completions pull their
 * rows: moved ahead of their send, each row would cost a second write transaction.
 */
function moveLimit(
  d: PlanState,
  at: number,
  budgetLeft: number,
  hookOf: (id: string) => SigningRow | undefined,
): { limit: number; aside?: boolean; blocked?: 'empty' | 'budget' | 'lanes' } {
  if (budgetLeft <= 0) return { limit: 0, blocked: 'budget' }
  const head = d.store.outboxHead(OUTBOX_PEEK)
  if (head.length === 0) return { limit: 0, blocked: 'empty' }
  const taken = new Map<string, number>()
  let fast = d.lanes.fastRoom(at)
  let claimable = 0
  let last = -1
  let stuck = false
  head.forEach((endpoint, i) => {
    const hook = hookOf(endpoint)
    if (!hook || d.lanes.stuck(endpoint, hook.storeId, at)) {
      stuck = true
      return
    }
    const t = taken.get(endpoint) ?? 0
    if (claimable >= budgetLeft || fast <= 0 || d.lanes.room(endpoint, hook.storeId, at) - t <= 0) return
    taken.set(endpoint, t + 1)
    fast--
    claimable++
    last = i
  })
  if (last >= 0) return { limit: last + 1 }
  if (stuck) return { limit: Math.min(MOVE_BATCH, budgetLeft), aside: true }
  return { limit: 0, blocked: claimable >= budgetLeft ? 'budget' : 'lanes' }
}

/** A claim's expiry: past the send's timeout, so only a crashed worker's claim ever expires. */
function lockFor(t: number, now: number): number {
  return now + t + Math.max(1000, t / 2)
}

/** A pump in `ms` (e.g. at the governor's next group), unless one is already due sooner. */
