/**
 * The VAPID key pair (RFC 8292) the push services check each push against: the browser
 * subscribed with its public key, so it must never change under existing subscriptions. Made
 * once into DATA_DIR/vapid.json (0600) unless VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import path from 'node:path'
import webpush from 'web-push'

export interface VapidKeys {
  publicKey: string
  privateKey: string
}

const FILE = 'vapid.json'
const cache = new Map<string, VapidKeys>()

export function loadVapidKeys(config: {
  dataDir: string
  vapidPublicKey?: string
  vapidPrivateKey?: string
}): VapidKeys {
  if (config.vapidPublicKey && config.vapidPrivateKey)
    return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey }
  const file = path.join(config.dataDir, FILE)
  const known = cache.get(file)
  if (known) return known
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  try {
    // 'wx': exactly one process creates it, even when two start at once; the other reads it.
    const fd = openSync(file, 'wx', 0o600)
    try {
      writeSync(fd, `${JSON.stringify(webpush.generateVAPIDKeys())}\n`)
    } finally {
      closeSync(fd)
    }
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err
  }
  let keys: VapidKeys | undefined
  // A reader that raced the creator's write sees an empty file for a moment.
  for (let i = 0; !keys && i < 50; i++) {
    try {
      keys = JSON.parse(readFileSync(file, 'utf8')) as VapidKeys
    } catch {
      Bun.sleepSync(10)
    }
  }
  if (!keys?.publicKey || !keys.privateKey) throw new Error(`${file} must hold a VAPID key pair`)
  cache.set(file, keys)
  return keys
}
