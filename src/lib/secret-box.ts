/**
 * Encryption at rest for secrets the service must be able to use again (webhook signing
 * secrets), which therefore can't be hashed like API keys. AES-256-GCM from node:crypto.
 *
 * The key comes from `SECRET_KEY` (HKDF-SHA256 over it, so any ≥ 32-character string works), or,
 * when unset, from 32 random bytes generated once into `DATA_DIR/secret.key` (mode 0600). Losing
 * that file (or changing SECRET_KEY) makes stored webhook secrets unreadable: rotate them after.
 *
 * Sealed form: `v1.<base64url(iv[12] | tag[16] | ciphertext)>`. The optional `aad` binds a
 * ciphertext to its row (the webhook id), so a secret copied onto another row won't open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, openSync, readFileSync, writeSync, closeSync } from 'node:fs'
import path from 'node:path'

export interface SecretBox {
  seal(plain: string, aad?: string): string
  open(sealed: string, aad?: string): string
}

const VERSION = 'v1.'
const KEY_FILE = 'secret.key'

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('secret-box key must be 32 bytes')
  return {
    seal(plain, aad = '') {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      cipher.setAAD(Buffer.from(aad))
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
    },
    open(sealed, aad = '') {
      if (!sealed.startsWith(VERSION)) throw new Error('unknown sealed-secret format')
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url')
      if (raw.length < 28) throw new Error('sealed secret too short')
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
      decipher.setAAD(Buffer.from(aad))
      decipher.setAuthTag(raw.subarray(12, 28))
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
    },
  }
}

/** The configured key: HKDF of SECRET_KEY, or DATA_DIR/secret.key created on first use. */
export function loadSecretKey(opts: { secretKey?: string; dataDir: string }): Buffer {
  if (opts.secretKey) {
    return Buffer.from(hkdfSync('sha256', opts.secretKey, 'storefront', 'secret-box v1', 32))
  }
  const file = path.join(opts.dataDir, KEY_FILE)
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 })
  try {
    // 'wx': exactly one process creates it, even when two start at once; the loser reads it.
    const fd = openSync(file, 'wx', 0o600)
    try {
      writeSync(fd, `${randomBytes(32).toString('base64')}\n`)
    } finally {
      closeSync(fd)
    }
    chmodSync(file, 0o600)
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err
  }
  let key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')
  // A reader that raced the creator's write sees an empty file for a moment.
  for (let i = 0; key.length === 0 && i < 50; i++) {
    Bun.sleepSync(10)
    key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')
  }
  if (key.length !== 32) throw new Error(`${file} must hold 32 base64-encoded bytes`)
  return key
}

export const secretBoxFor = (opts: { secretKey?: string; dataDir: string }) => createSecretBox(loadSecretKey(opts))

const boxes = new WeakMap<object, SecretBox>()

/** The box of a configuration, loaded once (the key file is read on first use). */
export function secretBoxOf(config: { secretKey?: string; dataDir: string }): SecretBox {
  let box = boxes.get(config)
  if (!box) boxes.set(config, (box = secretBoxFor(config)))
  return box
}
