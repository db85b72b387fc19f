/**
 * Whether another connection may have committed since the last look, without entering SQLite.
 *
 * `PRAGMA data_version` answers exactly that, but it is a statement: in WAL mode each run takes
 * and drops a read lock on the WAL index (~2 µs in a loop, ~7 µs a request under load, ~11 % of
 * a cached read's server CPU; docs/decisions/008). Every connection to a WAL database maps the
 * same WAL-index header (the first 48 bytes of `<db>-shm`; sqlite.org/walformat.html): its
 * `iChange` word moves with every commit and its checksum with any change of the header. While
 * that header reads the same as at the last `data_version`, nobody has committed since, and the
 * statement is skipped; when it differs (our own commits too), the statement runs as before.
 * A torn read while a writer updates the header reads as "changed": the safe side.
 *
 * Without a `-shm` file to map (not WAL, an in-memory database) every look runs the statement.
 */
import type { Database } from 'bun:sqlite'

/** The header words compared: iChange, mxFrame, salt[0], checksum[0], checksum[1]. */
const WORDS = [2, 4, 8, 10, 11] as const

export class CommitWatch {
  private header: Uint32Array | undefined
  private last = new Uint32Array(WORDS.length)
  private lastVersion: number
  private dataVersion

  constructor(client: Database) {
    this.dataVersion = client.prepare<{ data_version: number }, []>('PRAGMA data_version')
    const file = client.filename
    if (file && file !== ':memory:') {
      try {
        const shm = Bun.mmap(`${file}-shm`)
        if (shm.byteLength >= 48) this.header = new Uint32Array(shm.buffer, shm.byteOffset, 12)
      } catch {
        // No -shm (not WAL): the statement every time.
      }
    }
    this.lastVersion = this.read()
  }

  /** True when another connection has committed since the last call (or since construction). */
  changed(): boolean {
    const h = this.header
    if (h !== undefined) {
      const l = this.last
      if (h[2] === l[0] && h[4] === l[1] && h[8] === l[2] && h[10] === l[3] && h[11] === l[4]) return false
    }
    const v = this.read()
    if (v === this.lastVersion) return false
    this.lastVersion = v
    return true
  }

  /** The header as it is now, then `data_version`: a commit after the snapshot shows next time. */
  private read(): number {
    const h = this.header
    if (h !== undefined) for (let i = 0; i < WORDS.length; i++) this.last[i] = h[WORDS[i]!]!
    return this.dataVersion.get()!.data_version
  }
}
