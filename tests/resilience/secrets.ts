/**
 * Secrets at rest: after creating API keys and webhooks (and rotating some webhook secrets, and
 * sending signed deliveries), the bytes of the database file, its -wal and -shm hold no API
 * key secret and no webhook secret — not the `whsec_…` string, not its base64 part, not the raw
 * key bytes (nor their hex or base64url). API keys are stored as SHA-256 hashes plus a
 * 12-character display prefix; webhook secrets are sealed with AES-256-GCM (src/lib/secret-box.ts,
 * `v1.` + base64url(iv | tag | ciphertext), the webhook id as associated data), with the box
 * key in DATA_DIR/secret.key (0600) or derived from SECRET_KEY — never in the database.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { makeApp, type TestApp } from '../helpers/app'
import { makeKey, makeShop } from '../helpers/factories'
import { makeCatalog, orderBody, placeOrder } from '../helpers/factories'
import { startReceiver } from '../helpers/webhook-receiver'
import { fail, newResult, timed, type CaseResult } from './lib'

export async function runSecrets(opts: { keys?: number; webhooks?: number } = {}): Promise<CaseResult> {
  const r = newResult('secrets at rest')
  const receiver = startReceiver()
  const t: TestApp = makeApp({ webhookAllowPrivate: true, rateLimitKey: 1_000_000 })
  const nKeys = opts.keys ?? 10
  const nHooks = opts.webhooks ?? 6

  await timed(r, async () => {
    const deps = t.deps
    const { store, key } = makeShop(deps, { plan: 'pro' })
    const keys = [key, ...Array.from({ length: nKeys - 1 }, () => makeKey(deps, store.id, ['orders:read']))]
    const hooks: { id: string; secrets: string[] }[] = []
    for (let i = 0; i < nHooks; i++) {
      const [res, body] = await t.api.post(
        '/api/v1/webhooks',
        { url: `${receiver.url}/${i}`, events: ['order.created'] },
        { key },
      )
      if (res.status !== 201 || !String(body.data?.secret).startsWith('whsec_'))
        throw new Error(`webhook create: ${res.status} ${JSON.stringify(body)}`)
      hooks.push({ id: body.data.id, secrets: [body.data.secret] })
    }
    // Rotation keeps the previous secret (sealed too) for the overlap.
    for (const h of hooks.slice(0, Math.ceil(nHooks / 2))) {
      const [res, body] = await t.api.post(`/api/v1/webhooks/${h.id}/rotate-secret`, undefined, { key })
      if (res.status !== 200) throw new Error(`rotate: ${res.status} ${JSON.stringify(body)}`)
      h.secrets.push(body.data.secret)
    }
    // Signed deliveries go out (the dispatcher opens the sealed secrets).
    const cat = makeCatalog(deps, store.id)
    placeOrder(deps, orderBody(store.id, cat))
    deps.onOutbox(store.id)
    await receiver.waitFor(() => receiver.received.length >= nHooks, 10_000)

    // Reads never show a secret.
    for (const p of [
      '/api/v1/webhooks?limit=100',
      `/api/v1/webhooks/${hooks[0]!.id}`,
      `/api/v1/webhooks/${hooks[0]!.id}/deliveries`,
    ]) {
      const [, body] = await t.api.get(p, { key })
      const text = JSON.stringify(body)
      r.tried++
      if (text.includes('"secret"') || hooks.some((h) => h.secrets.some((s) => text.includes(s.slice(6))))) {
        r.leaks++
        fail(r, `GET ${p} shows a webhook secret`)
      }
    }

    const needles: { label: string; bytes: Buffer }[] = []
    for (const k of keys) {
      needles.push({ label: `API key ${k.slice(0, 12)}…`, bytes: Buffer.from(k) })
      // The first 12 characters are the stored display prefix; the rest is the secret part.
      needles.push({ label: `API key ${k.slice(0, 12)}… secret part`, bytes: Buffer.from(k.slice(12)) })
    }
    for (const h of hooks) {
      for (const s of h.secrets) {
        const b64 = s.slice('whsec_'.length)
        const raw = Buffer.from(b64, 'base64')
        needles.push({ label: `webhook secret of ${h.id}`, bytes: Buffer.from(s) })
        needles.push({ label: `webhook secret base64 of ${h.id}`, bytes: Buffer.from(b64) })
        needles.push({ label: `webhook secret bytes of ${h.id}`, bytes: raw })
        needles.push({ label: `webhook secret hex of ${h.id}`, bytes: Buffer.from(raw.toString('hex')) })
        needles.push({ label: `webhook secret base64url of ${h.id}`, bytes: Buffer.from(raw.toString('base64url')) })
      }
    }
    const boxKeyFile = path.join(t.config.dataDir, 'secret.key')
    if (existsSync(boxKeyFile)) {
      if ((statSync(boxKeyFile).mode & 0o077) !== 0) fail(r, `${boxKeyFile} is readable by group or others`)
      const boxKey = readFileSync(boxKeyFile, 'utf8').trim()
      needles.push(
        { label: 'secret-box key (base64)', bytes: Buffer.from(boxKey) },
        { label: 'secret-box key (bytes)', bytes: Buffer.from(boxKey, 'base64') },
      )
    }

    const sql = deps.db.$client
    const scan = (phase: string) => {
      const dbFile = path.join(t.config.dataDir, 'storefront.db')
      const files = [dbFile, `${dbFile}-wal`, `${dbFile}-shm`].filter(existsSync)
      let bytes = 0
      // Control: the stored hash of the first key must be found, or the scan reads the wrong bytes.
      const control = Buffer.from(
        sql.query<{ hash: string }, [string]>('SELECT hash FROM api_keys WHERE prefix = ?').get(keys[0]!.slice(0, 12))!
          .hash,
      )
      if (!files.some((f) => readFileSync(f).includes(control)))
        fail(r, `${phase}: the control value (a stored key hash) is not found in the files`)
      for (const f of files) {
        const content = readFileSync(f)
        bytes += content.length
        for (const n of needles) {
          r.tried++
          if (content.includes(n.bytes)) {
            r.leaks++
            fail(r, `${phase}: ${path.basename(f)} contains the ${n.label}`)
          }
        }
      }
      r.notes.push(
        `${phase}: ${files.map((f) => path.basename(f)).join(' + ')} (${bytes} bytes) × ${needles.length} needles`,
      )
    }
    scan('before checkpoint')
    deps.db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    scan('after checkpoint')

    // What is stored instead: hashes, and sealed secrets that open only for their own row.
    const stored = sql
      .query<{ hash: string; prefix: string }, [string]>('SELECT hash, prefix FROM api_keys WHERE store_id = ?')
      .all(store.id)
    if (stored.length !== nKeys || stored.some((k) => !/^[0-9a-f]{64}$/.test(k.hash) || k.prefix.length !== 12))
      fail(r, 'api_keys rows are not SHA-256 hashes with a 12-character prefix')
    for (const h of hooks) {
      const row = sql
        .query<{ secret: string; previous_secret: string | null }, [string]>(
          'SELECT secret, previous_secret FROM webhooks WHERE id = ?',
        )
        .get(h.id)!
      if (!row.secret.startsWith('v1.')) fail(r, `webhook ${h.id}: stored secret is not in the sealed format`)
      if (deps.secretBox.open(row.secret, h.id) !== h.secrets.at(-1))
        fail(r, `webhook ${h.id}: the sealed secret does not open to the secret shown`)
      if (
        h.secrets.length > 1 &&
        (row.previous_secret === null || deps.secretBox.open(row.previous_secret, h.id) !== h.secrets[0])
      )
        fail(r, `webhook ${h.id}: previous secret not sealed`)
      let opened = true
      try {
        deps.secretBox.open(row.secret, hooks.find((x) => x.id !== h.id)!.id)
      } catch {
        opened = false
      }
      if (opened) fail(r, `webhook ${h.id}: its sealed secret opens for another webhook id (no row binding)`)
    }
  })

  receiver.stop()
  t.close()
  return r
}
