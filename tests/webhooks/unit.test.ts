/**
 * Pure pieces of webhooks: signing vs the standardwebhooks package, the secret box, the SSRF classifier, Retry-After.
 */
import { describe, expect, test } from 'bun:test'
import { rmSync, statSync } from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { Webhook } from 'standardwebhooks'
import { tempDir } from '../helpers/app'
import { newSecret, sign, signatureHeader } from '../../src/modules/webhooks/signing'
import { createSecretBox, loadSecretKey, secretBoxFor } from '../../src/lib/secret-box'
import { checkWebhookUrl, classifyIp } from '../../src/lib/ssrf'
import { parseRetryAfter } from '../../src/modules/webhooks/retry-policy'

describe('signing', () => {
  test('byte-equal to standardwebhooks Webhook.sign, and verified by Webhook.verify', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.string({ maxLength: 2000 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        (id, body, ts) => {
          const secret = newSecret()
          const ours = sign(secret, id, ts, body)
          expect(ours).toBe(new Webhook(secret).sign(id, new Date(ts * 1000), body))
        },
      ),
      { numRuns: 300 },
    )
    const secret = newSecret()
    const now = Math.floor(Date.now() / 1000)
    const body = JSON.stringify({
      type: 'order.created',
      event: 'order.created',
      timestamp: new Date().toISOString(),
      data: { id: 'x', note: 'ñ €' },
    })
    const header = signatureHeader([secret, newSecret()], 'msg_1', now, body)
    expect(
      new Webhook(secret).verify(body, {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(now),
        'webhook-signature': header,
      }),
    ).toMatchObject({ data: { note: 'ñ €' } })
    expect(() =>
      new Webhook(newSecret()).verify(body, {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(now),
        'webhook-signature': header,
      }),
    ).toThrow()
    expect(() =>
      new Webhook(secret).verify(`${body} `, {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(now),
        'webhook-signature': header,
      }),
    ).toThrow()
  })

  test('secrets are whsec_ + base64 of 24 random bytes, all different', () => {
    const seen = new Set(Array.from({ length: 200 }, newSecret))
    expect(seen.size).toBe(200)
    for (const s of seen) expect(Buffer.from(s.slice(6), 'base64').length).toBe(24)
  })
})

describe('secret box', () => {
  test('round-trips; the ciphertext is bound to its key and its row', () => {
    const box = createSecretBox(Buffer.alloc(32, 7))
    const sealed = box.seal('whsec_abc', 'wh1')
    expect(sealed).toMatch(/^v1\./)
    expect(sealed).not.toContain('whsec_abc')
    expect(box.open(sealed, 'wh1')).toBe('whsec_abc')
    expect(box.seal('whsec_abc', 'wh1')).not.toBe(sealed) // random IV
    expect(() => box.open(sealed, 'wh2')).toThrow()
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed, 'wh1')).toThrow()
    // Flip one bit of the decoded bytes: editing base64 text can touch only padding bits.
    const raw = Buffer.from(sealed.slice(3), 'base64url')
    raw[raw.length - 1]! ^= 1
    const tampered = `v1.${raw.toString('base64url')}`
    expect(() => box.open(tampered, 'wh1')).toThrow()
  })

  test('SECRET_KEY derives the key; without it one key file is generated (0600) and reused', () => {
    const dir = tempDir()
    try {
      const k1 = loadSecretKey({ secretKey: 'x'.repeat(32), dataDir: dir })
      expect(k1).toEqual(loadSecretKey({ secretKey: 'x'.repeat(32), dataDir: dir }))
      expect(k1).not.toEqual(loadSecretKey({ secretKey: 'y'.repeat(32), dataDir: dir }))
      const f1 = loadSecretKey({ dataDir: dir })
      expect(statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600)
      expect(loadSecretKey({ dataDir: dir })).toEqual(f1)
      const sealed = secretBoxFor({ dataDir: dir }).seal('hello')
      expect(secretBoxFor({ dataDir: dir }).open(sealed)).toBe('hello')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('SSRF classifier', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['0.0.0.0', 'this-network'],
    ['0.1.2.3', 'this-network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'benchmarking'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:7f00:1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['::127.0.0.1', 'ipv4-compatible'],
    ['::ffff:0:7f00:1', 'ipv4-translated'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['64:ff9b::10.0.0.1', 'nat64-private'],
    ['64:ff9b::7f00:1', 'nat64-loopback'],
    ['64:ff9b:1::1', 'nat64-local'],
    ['2002:c0a8:0101::1', '6to4-private'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'ietf-special'],
    ['100::1', 'not-global-unicast'],
  ])('%s is refused (%s)', (ip, kind) => {
    expect(classifyIp(ip)).toBe(kind)
  })

  test.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
  ])('%s is public', (ip) => {
    expect(classifyIp(ip)).toBeNull()
  })

  test('odd IPv4 spellings normalize to what they are before the check', async () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://127.1/',
      'http://017700000001/',
      'http://0x7f000001/',
      'http://127.0.0.1./',
    ]) {
      expect(await checkWebhookUrl(url, { allowPrivate: false })).toMatchObject({
        ok: false,
        reason: 'private_address',
      })
    }
  })

  test('hostnames: each resolved address must be public; local names never resolve; else not_found', async () => {
    const lookup = (answers: Record<string, string[]>) => async (host: string) => {
      if (!(host in answers)) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' })
      return answers[host]!
    }
    const dns = lookup({
      'good.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
      'mixed.example.com': ['93.184.216.34', '10.0.0.5'],
      'rebind.example.com': ['::ffff:169.254.169.254'],
      'empty.example.com': [],
    })
    expect(await checkWebhookUrl('https://good.example.com/x', { allowPrivate: false, lookup: dns })).toMatchObject({
      ok: true,
      addresses: ['93.184.216.34', '2606:2800:220:1::1'],
    })
    expect(await checkWebhookUrl('https://mixed.example.com/x', { allowPrivate: false, lookup: dns })).toMatchObject({
      ok: false,
      reason: 'private_address',
    })
    expect(await checkWebhookUrl('https://rebind.example.com/x', { allowPrivate: false, lookup: dns })).toMatchObject({
      ok: false,
      reason: 'private_address',
    })
    expect(await checkWebhookUrl('https://empty.example.com/x', { allowPrivate: false, lookup: dns })).toMatchObject({
      ok: false,
      reason: 'not_found',
    })
    expect(await checkWebhookUrl('https://nope.example.com/x', { allowPrivate: false, lookup: dns })).toMatchObject({
      ok: false,
      reason: 'not_found',
    })
    for (const host of [
      'localhost',
      'LOCALHOST.',
      'a.b.localhost',
      'printer.local',
      'db.internal',
      'nas.home.arpa',
      'intranet',
    ]) {
      expect(await checkWebhookUrl(`http://${host}/x`, { allowPrivate: false, lookup: dns })).toMatchObject({
        ok: false,
        reason: 'private_address',
      })
    }
    // WEBHOOK_ALLOW_PRIVATE turns the address rules off, not the format rules.
    expect(await checkWebhookUrl('http://127.0.0.1:9/x', { allowPrivate: true })).toMatchObject({ ok: true })
    expect(await checkWebhookUrl('file:///etc/passwd', { allowPrivate: true })).toMatchObject({
      ok: false,
      reason: 'invalid_format',
    })
  })
})

test('Retry-After: seconds or an HTTP date', () => {
  const now = Date.UTC(2026, 0, 1)
  expect(parseRetryAfter('120', now)).toBe(120_000)
  expect(parseRetryAfter(new Date(now + 90_000).toUTCString(), now)).toBe(90_000)
  expect(parseRetryAfter(new Date(now - 90_000).toUTCString(), now)).toBe(0)
  expect(parseRetryAfter('soon', now)).toBeUndefined()
  expect(parseRetryAfter(null, now)).toBeUndefined()
})
