/**
 * Checked CSV files waiting for "Apply", between the dry run and the apply. Why here and not
 * re-posted: without a script, re-posting means choosing the file again, and a person could pick
 * a different one than the one they reviewed. Why the file and not its parsed rows: the rows as
 * objects take several times the file's bytes, and the apply parses and plans again inside its
 * transaction anyway (the catalog may have changed since the dry run).
 *
 * Each file is kept under a random 128-bit id, bound to the session and the store that checked
 * it, with its SHA-256 (the apply form carries both; a mismatch is refused), for 30 minutes. A
 * session keeps only its latest file, and the process at most MAX_STAGED (the oldest go first),
 * so at most MAX_STAGED × CSV_MAX_BYTES of memory. They live in memory: a restart forgets them,
 * and the person uploads the file again.
 */
import { randomBytes } from 'node:crypto'

export const MAX_STAGED = 8
export const STAGED_TTL_MS = 30 * 60_000

export interface Staged {
  id: string
  sessionId: string
  storeId: string
  name: string
  file: Blob
  hash: string
  expiresAt: number
}

export const sha256 = async (file: Blob) =>
  new Bun.CryptoHasher('sha256').update(await file.arrayBuffer()).digest('hex')

export class StagedImports {
  private items = new Map<string, Staged>()

  constructor(private now: () => number) {}

  put(owner: { sessionId: string; storeId: string }, file: { name: string; file: Blob; hash: string }): Staged {
    this.sweep()
    for (const [id, s] of this.items) if (s.sessionId === owner.sessionId) this.items.delete(id)
    while (this.items.size >= MAX_STAGED) this.items.delete(this.items.keys().next().value!)
    const staged: Staged = {
      id: randomBytes(16).toString('base64url'),
      ...owner,
      ...file,
      expiresAt: this.now() + STAGED_TTL_MS,
    }
    this.items.set(staged.id, staged)
    return staged
  }

  /** The staged file, when this session and store checked it, it is the same file, and it has not expired. */
  get(id: string, owner: { sessionId: string; storeId: string }, hash: string): Staged | undefined {
    this.sweep()
    const s = this.items.get(id)
    return s && s.sessionId === owner.sessionId && s.storeId === owner.storeId && s.hash === hash ? s : undefined
  }

  drop(id: string): void {
    this.items.delete(id)
  }

  private sweep(): void {
    const now = this.now()
    for (const [id, s] of this.items) if (s.expiresAt <= now) this.items.delete(id)
  }
}
