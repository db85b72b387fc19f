/** `backup` and `restore`; the work is in src/backup/snapshot.ts and src/replica/restore.ts. */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { BACKUPS_DIR, BackupError, createSnapshot, DB_FILE, restoreSnapshot } from '../backup/snapshot'
import type { Command } from './command'
import { UsageError } from './args'
import { restoreFromReplica } from '../replica/restore'

export const BACKUP_COMMANDS: Record<string, Command> = {
  backup: {
    summary: 'write a consistent snapshot (database, secret.key, media) while the service runs',
    options: {
      to: { type: 'string', value: 'DIR', help: 'where the snapshot folder goes (default DATA_DIR/backups)' },
    },
    run: ({ config, clock }, _p, f) => {
      if (!existsSync(path.join(config.dataDir, DB_FILE)))
        throw new BackupError('BAD_SNAPSHOT', `no database in ${config.dataDir}`)
      const dest = typeof f.to === 'string' ? path.resolve(f.to) : path.join(config.dataDir, BACKUPS_DIR)
      const { path: snapshot, manifest } = createSnapshot(config.dataDir, dest, clock.now())
      return { snapshot, ...manifest }
    },
    note:
      'Copy the snapshot off this machine (or replicate with Litestream, ' +
      'docs/operations.md). It holds secret.key: keep it as private as the data.',
  },
  restore: {
    summary:
      'replace the database (and secret.key, media) with a snapshot, ' +
      'or the database with the replica (service stopped)',
    args: ['[<snapshot>]'],
    options: {
      'from-replica': {
        type: 'boolean',
        help: 'restore the database from REPLICA_URL with Litestream instead of a snapshot',
      },
      timestamp: {
        type: 'string',
        value: 'ISO',
        help: 'with --from-replica: the state at this instant (e.g. 2026-11-23T14:05:00Z) instead of the latest',
      },
    },
    run: ({ config, clock }, [snapshot], f) => {
      if (f['from-replica']) {
        if (snapshot) throw new UsageError('give a snapshot or --from-replica, not both')
        if (!config.replicaUrl)
          throw new UsageError('--from-replica needs REPLICA_URL (and the LITESTREAM_* credentials for s3://)')
        const timestamp = typeof f.timestamp === 'string' ? isoInstant(f.timestamp) : undefined
        return {
          ...restoreFromReplica({
            dataDir: config.dataDir,
            url: config.replicaUrl,
            endpoint: config.replicaEndpoint,
            timestamp,
            secretKeyFromEnv: Boolean(config.secretKey),
            now: clock.now(),
          }),
        }
      }
      if (f.timestamp !== undefined) throw new UsageError('--timestamp goes with --from-replica')
      if (!snapshot) throw new UsageError('missing <snapshot> (or --from-replica)')
      return { ...restoreSnapshot(snapshot, config.dataDir, clock.now()) }
    },
    note:
      'Restored. Start the service; the replaced files (if any) are in the "previous" folder until you delete them. ' +
      'A restore from the replica keeps DATA_DIR/secret.key and media/ as they were: ' +
      'they must be the ones the replicated service used (secretKey "missing" means the webhook secrets ' +
      'cannot be opened).',
  },
}

/** An ISO 8601 instant with a zone, as Litestream's -timestamp takes it (RFC 3339). */
function isoInstant(raw: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) ? Date.parse(raw) : NaN
  if (Number.isNaN(ms))
    throw new UsageError(
      `--timestamp ${JSON.stringify(raw)}: expected an ISO 8601 instant with a zone, e.g. 2026-11-23T14:05:00Z`,
    )
  return new Date(ms).toISOString()
}
