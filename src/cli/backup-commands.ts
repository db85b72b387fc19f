/** `backup` and `restore` (contract "Backups"); the work is in src/backup/snapshot.ts. */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { BACKUPS_DIR, BackupError, createSnapshot, DB_FILE, restoreSnapshot } from '../backup/snapshot'
import type { Command } from './command'
import { UsageError } from './args'

export const BACKUP_COMMANDS: Record<string, Command> = {
  backup: {
    summary: 'write a consistent snapshot (database, secret.key, media) while the service runs',
    options: { to: { type: 'string', value: 'DIR', help: 'where the snapshot folder goes (default DATA_DIR/backups)' } },
    run: ({ config, clock }, _p, f) => {
      if (!existsSync(path.join(config.dataDir, DB_FILE))) throw new BackupError('BAD_SNAPSHOT', `no database in ${config.dataDir}`)
      const dest = typeof f.to === 'string' ? path.resolve(f.to) : path.join(config.dataDir, BACKUPS_DIR)
      const { path: snapshot, manifest } = createSnapshot(config.dataDir, dest, clock.now())
      return { snapshot, ...manifest }
    },
    note: 'Copy the snapshot off this machine (or replicate with Litestream, docs/operations.md). It holds secret.key: keep it as private as the data.',
  },
  restore: {
    summary: 'replace the database, secret.key and media with a snapshot (service stopped)',
    args: ['<snapshot>'],
    run: ({ config, clock }, [snapshot]) => {
      if (!snapshot) throw new UsageError('missing <snapshot>')
      return { ...restoreSnapshot(snapshot, config.dataDir, clock.now()) }
    },
    note: 'Restored. Start the service; the replaced files (if any) are in the "previous" folder until you delete them.',
  },
}
