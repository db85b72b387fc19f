/**
 * Data directories migrated by a version of a migration that was later edited.
 *
 * Drizzle's migrator runs every journal entry whose `when` is newer than the last one the
 * database recorded. `0006_webhook-outbox` was edited twice after it was committed, each time with
 * a new `when`, so a database that ran an earlier version would run it again and fail on
 * `CREATE TABLE webhook_outbox`. Each superseded version is brought to the final one here, before
 * the migrator looks, and recorded as the final version. New migrations never need this: a
 * committed migration is never edited (scripts/check-migrations.ts fails CI when one is).
 */
import type { Database } from 'bun:sqlite'

/** The final 0006 as committed; the repairs end in exactly its schema. */
const FINAL_0006_WHEN = 1795342544475

const OUTBOX_FINAL = `CREATE TABLE \`webhook_outbox\` (
	\`seq\` integer PRIMARY KEY NOT NULL,
	\`webhook_id\` text NOT NULL,
	\`store_id\` text NOT NULL,
	\`event_type\` text NOT NULL,
	\`payload\` text,
	\`subject_id\` text,
	\`created_at\` integer NOT NULL,
	FOREIGN KEY (\`webhook_id\`) REFERENCES \`webhooks\`(\`id\`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (\`store_id\`) REFERENCES \`stores\`(\`id\`) ON UPDATE no action ON DELETE cascade
)`

const LOG_INDEX =
  'CREATE INDEX IF NOT EXISTS `deliveries_webhook_status_created_idx` ON `webhook_deliveries` ' +
  '(`webhook_id`,`status`,`created_at`)'

/** `when` of a superseded 0006 → the statements that turn its schema into the final one. */
const SUPERSEDED_0006: Record<number, string[]> = {
  // 3c18285: payload NOT NULL, no subject_id, no delivery-log index. Its rows all carry a payload,
  // which the final outbox still sends as it is.
  1795339387398: [
    OUTBOX_FINAL.replace('`webhook_outbox`', '`webhook_outbox_final`'),
    'INSERT INTO webhook_outbox_final (seq, webhook_id, store_id, event_type, payload, subject_id, ' +
      'created_at) SELECT seq, webhook_id, store_id, event_type, payload, NULL, created_at ' +
      'FROM webhook_outbox',
    'DROP TABLE webhook_outbox',
    'ALTER TABLE webhook_outbox_final RENAME TO webhook_outbox',
    LOG_INDEX,
  ],
  // 081def7: the final outbox, but not yet the delivery-log index.
  1795341350168: [LOG_INDEX],
}

/** Brings a database migrated by a superseded migration version to the final one. */
export function repairSupersededMigrations(sqlite: Database): void {
  const hasJournal = sqlite
    .query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get()
  if (!hasJournal) return
  // Drizzle's `id SERIAL` column is NULL in SQLite: rows are told apart by created_at.
  const last = sqlite.query('SELECT max(created_at) AS createdAt FROM __drizzle_migrations').get() as {
    createdAt: number | string | null
  } | null
  const when = Number(last?.createdAt)
  const steps = SUPERSEDED_0006[when]
  if (!steps) return
  sqlite
    .transaction(() => {
      for (const stmt of steps) sqlite.run(stmt)
      sqlite.run('UPDATE __drizzle_migrations SET created_at = ?1 WHERE created_at = ?2', [FINAL_0006_WHEN, when])
    })
    .immediate()
}
