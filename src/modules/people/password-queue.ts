/**
 * The queue in front of argon2id: at most `parallel` hashes run at once (each holds 64 MiB for
 * ~160 ms) and at most `capacity` wait. It is fair between client addresses (each an IP, or an
 * IPv6 /64): one shared FIFO let a flood from many addresses fill every place, so a person from
 * a clean address was refused (429) with everyone else.
 *
 * - **Who goes next:** of the addresses with work waiting, the one with the least recent use —
 *   hashes it started, decaying by half every USE_HALF_LIFE_MS — so a clean address is served
 *   before any address that has been hashing, and busy addresses take turns.
 * - **Who is refused when full:** an arrival takes the place of the newest waiting task of the
 *   heaviest address (recent use + tasks waiting) when that address weighs more than the arrival
 *   would with this task; otherwise the arrival itself is refused. A clean address is refused only
 *   when every waiting task belongs to an address that has never been served and waits alone.
 *
 * Pure apart from the clock it is given: tests drive it with their own tasks and clock.
 */
import { RateLimited } from '../../lib/errors'

export const USE_HALF_LIFE_MS = 30_000
/** Addresses remembered at most before the forgotten ones (no work, use decayed away) are dropped. */
const PRUNE_ABOVE = 10_000
const FORGOTTEN = 0.01

interface Task {
  address: string
  start: () => void
  refuse: (e: Error) => void
  seq: number
}

interface Use {
  score: number
  at: number
  waiting: Task[]
}

export class FairQueue {
  private running = 0
  private waiting = 0
  private seq = 0
  private uses = new Map<string, Use>()
  /** The addresses with work waiting (the only ones the choices below look at). */
  private queued = new Set<Use>()
  private pruneAt = PRUNE_ABOVE

  constructor(
    private parallel: number,
    private capacity: number,
    private now: () => number = Date.now,
  ) {}

  /** Tasks running and waiting now (for tests and the bench). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting }
  }

  /** Recent use of `address` (hashes started, decayed), for tests. */
  useOf(address: string): number {
    const u = this.uses.get(address)
    return u ? this.decayed(u) : 0
  }

  async run<T>(address: string, fn: () => Promise<T>): Promise<T> {
    if (this.running < this.parallel && this.waiting === 0) this.begin(address)
    else await this.wait(address)
    try {
      return await fn()
    } finally {
      this.running--
      this.next()
    }
  }

  private wait(address: string): Promise<void> {
    if (this.waiting >= this.capacity && !this.makeRoom(address)) return Promise.reject(new RateLimited(1))
    return new Promise<void>((resolve, reject) => {
      const u = this.use(address)
      u.waiting.push({ address, start: resolve, refuse: reject, seq: this.seq++ })
      this.queued.add(u)
      this.waiting++
    })
  }

  /** Refuses the newest waiting task of the heaviest address, if it weighs more than `address` would. */
  private makeRoom(address: string): boolean {
    const arrival = this.uses.get(address)
    const arrivalWeight = (arrival ? this.decayed(arrival) + arrival.waiting.length : 0) + 1
    let heaviest: Use | undefined
    let weight = 0
    for (const u of this.queued) {
      const w = this.decayed(u) + u.waiting.length
      if (w > weight) (heaviest = u), (weight = w)
    }
    if (!heaviest || weight <= arrivalWeight) return false
    const task = heaviest.waiting.pop()!
    if (heaviest.waiting.length === 0) this.queued.delete(heaviest)
    this.waiting--
    task.refuse(new RateLimited(1))
    return true
  }

  /** Starts the waiting task of the address with the least recent use (the earliest, on a tie). */
  private next(): void {
    while (this.running < this.parallel && this.waiting > 0) {
      let best: Use | undefined
      let bestScore = Number.POSITIVE_INFINITY
      for (const u of this.queued) {
        const s = this.decayed(u)
        if (s < bestScore || (s === bestScore && u.waiting[0]!.seq < best!.waiting[0]!.seq)) (best = u), (bestScore = s)
      }
      const task = best!.waiting.shift()!
      if (best!.waiting.length === 0) this.queued.delete(best!)
      this.waiting--
      this.begin(task.address)
      task.start()
    }
  }

  private begin(address: string): void {
    this.running++
    const u = this.use(address)
    u.score = this.decayed(u) + 1
    u.at = this.now()
  }

  private use(address: string): Use {
    let u = this.uses.get(address)
    if (!u) {
      if (this.uses.size >= this.pruneAt) this.prune()
      this.uses.set(address, (u = { score: 0, at: this.now(), waiting: [] }))
    }
    return u
  }

  private decayed(u: Use): number {
    const age = this.now() - u.at
    return age <= 0 ? u.score : u.score * 0.5 ** (age / USE_HALF_LIFE_MS)
  }

  /** Drops forgotten addresses; the next prune waits until the map doubles (amortised O(1) per address). */
  private prune(): void {
    for (const [address, u] of this.uses)
      if (u.waiting.length === 0 && this.decayed(u) < FORGOTTEN) this.uses.delete(address)
    this.pruneAt = Math.max(PRUNE_ABOVE, this.uses.size * 2)
  }
}
