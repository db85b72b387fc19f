/**
 * The queue in front of argon2id: at most `parallel` hashes run at once (each holds 64 MiB for
 * ~160 ms) and at most `capacity` wait. It is fair between client addresses (each an IP, or an
 * IPv6 /64): one shared FIFO let a flood from many addresses fill every place, so a person from
 * a clean address was refused (429) with everyone else.
 *
 * Each address has a weight: its recent demand — every task it asked for, refused or not, and
 * every hash it started — decaying by half every USE_HALF_LIFE_MS. A flooding address that is
 * refused and asks again grows heavy at once; a person signing in from a clean address weighs 1.
 * - **Who goes next:** the waiting task of the lightest address (the earliest, on a tie).
 * - **Who is refused when full:** the arrival takes the place of the newest waiting task of the
 *   heaviest other address, when that one weighs at least as much; otherwise the arrival itself
 *   is refused. A person from a clean address weighs 1 and every waiting address at least about
 *   1, so they get in. What no queue can do is tell people from a flood of single requests from
 *   ever-fresh addresses: there each newcomer takes the newest place, a person's included.
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

  /** The weight of `address` now (tasks asked for and hashes started, decayed), for tests. */
  useOf(address: string): number {
    const u = this.uses.get(address)
    return u ? this.decayed(u) : 0
  }

  async run<T>(address: string, fn: () => Promise<T>): Promise<T> {
    this.bump(this.use(address))
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

  /**
   * Refuses the newest waiting task of the heaviest other address, if it weighs at least as much
   * as `address` (a tie goes to the newcomer: at a flood's start every waiting task weighs what
   * a person's does, and the flood's refused tasks, asked again, outweigh both at once).
   */
  private makeRoom(address: string): boolean {
    const arrival = this.uses.get(address)
    const arrivalWeight = this.useOf(address)
    let heaviest: Use | undefined
    let weight = -1
    for (const u of this.queued) {
      if (u === arrival) continue
      const w = this.decayed(u)
      // Equal weights: the address whose newest task came last gives it up.
      if (w > weight || (w === weight && u.waiting.at(-1)!.seq > heaviest!.waiting.at(-1)!.seq))
        (heaviest = u), (weight = w)
    }
    if (!heaviest || weight < arrivalWeight) return false
    const task = heaviest.waiting.pop()!
    if (heaviest.waiting.length === 0) this.queued.delete(heaviest)
    this.waiting--
    task.refuse(new RateLimited(1))
    return true
  }

  /** Starts the waiting task of the lightest address (the earliest, on a tie). */
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
    this.bump(this.use(address))
  }

  private bump(u: Use): void {
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
