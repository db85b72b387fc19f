/**
 * Pictures can't be turned into a file read, and they leave with their product: restore refuses links and special
 * files, /media never follows a link, a soft-deleted product's pictures stop being served and leave the disk after the
 * retention.
 */
import { describe, expect, test } from 'bun:test'
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { expectStatus, appForFile, makeApp, tempDir, type Json } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { BackupError, createSnapshot, restoreSnapshot } from '../../src/backup/snapshot'
import { MEDIA_RETENTION_DAYS, pruneMedia } from '../../src/modules/products/images/prune'

const clock = fixedClock(Date.UTC(2026, 10, 1))
const t = appForFile({}, { clock })

const jpeg = () =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: '#c83c14' } })
    .jpeg()
    .toBuffer()
const media = (url: string) => t.app.handle(new Request(`http://localhost${url}`))
const publicDir = (storeId: string) => path.join(t.config.dataDir, 'media', 'public', storeId)
const originalsDir = (storeId: string) => path.join(t.config.dataDir, 'media', 'originals', storeId)

async function pictured() {
  const { store, key } = makeShop(t.deps, { plan: 'pro' })
  const [pr, pb] = await t.api.post('/api/v1/products', { name: 'Vase', price: 30 }, { key })
  expectStatus(pr, pb).toBe(201)
  const form = new FormData()
  form.append('file', new File([await jpeg()], 'v.jpg', { type: 'image/jpeg' }))
  const res = await t.app.handle(
    new Request(`http://localhost/api/v1/products/${pb.data.id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    }),
  )
  const img: Json = await res.json()
  expectStatus(res, img).toBe(201)
  return { store, key, productId: pb.data.id as string, image: img.data }
}

describe('/media never follows a link', () => {
  test('a rendition replaced by a symlink to another file → 404; by a hard link → 404', async () => {
    const { store, image } = await pictured()
    const file = path.join(publicDir(store.id), path.basename(image.url))
    expect((await media(image.url)).status).toBe(200)
    const secret = path.join(t.config.dataDir, 'not-public.txt')
    writeFileSync(secret, 'root:x:0:0')
    unlinkSync(file)
    symlinkSync(secret, file)
    const viaSymlink = await media(image.url)
    expect(viaSymlink.status).toBe(404)
    expect(await viaSymlink.text()).not.toContain('root:x')
    unlinkSync(file)
    linkSync(secret, file)
    expect((await media(image.url)).status).toBe(404)
  })

  test('a store folder that is a symlink out of the media folder → 404', async () => {
    const { store, image } = await pictured()
    const outside = tempDir('sf-outside-')
    try {
      for (const f of readdirSync(publicDir(store.id))) writeFileSync(path.join(outside, f), 'outside')
      rmSync(publicDir(store.id), { recursive: true })
      symlinkSync(outside, publicDir(store.id))
      expect((await media(image.url)).status).toBe(404)
    } finally {
      rmSync(outside, { recursive: true, force: true })
    }
  })
})

describe('media lifecycle', () => {
  test("a soft-deleted product's pictures → 404 at once; files and rows go once the retention ends", async () => {
    const { store, key, productId, image } = await pictured()
    const other = await pictured()
    const [del] = await t.api.delete(`/api/v1/products/${productId}`, { key })
    expect(del.status).toBe(200)
    for (const s of image.sizes) expect((await media(s.url)).status).toBe(404)
    expect((await media(other.image.url)).status).toBe(200)

    clock.advance((MEDIA_RETENTION_DAYS - 1) * 86_400_000)
    await pruneMedia({ ctx: { db: t.deps.db, clock }, input: { dataDir: t.config.dataDir } })
    expect(readdirSync(publicDir(store.id)).length).toBeGreaterThan(0)
    clock.advance(2 * 86_400_000)
    const pruned = await pruneMedia({ ctx: { db: t.deps.db, clock }, input: { dataDir: t.config.dataDir } })
    expect(pruned.images).toBeGreaterThanOrEqual(1)
    expect(readdirSync(publicDir(store.id))).toEqual([])
    expect(readdirSync(originalsDir(store.id))).toEqual([])
    expect(
      t.deps.db.$client.query('SELECT count(*) AS n FROM product_images WHERE product_id = ?').get(productId),
    ).toEqual({ n: 0 })
    // Another store's live pictures are untouched.
    expect((await media(other.image.url)).status).toBe(200)
  })

  test('a store whose rows are gone loses its media at the next prune', async () => {
    const { store, image } = await pictured()
    t.deps.db.$client.run('PRAGMA foreign_keys = ON')
    t.deps.db.$client.run('DELETE FROM stores WHERE id = ?', [store.id])
    expect((await media(image.url)).status).toBe(404)
    const pruned = await pruneMedia({ ctx: { db: t.deps.db, clock }, input: { dataDir: t.config.dataDir } })
    expect(pruned.stores).toBeGreaterThanOrEqual(1)
    expect(existsSync(publicDir(store.id))).toBe(false)
    expect(existsSync(originalsDir(store.id))).toBe(false)
  })
})

describe('restore refuses links and special files', () => {
  function snapshotOf(): { dir: string; snap: string; target: string } {
    const src = makeApp()
    const dir = tempDir('sf-snap-')
    try {
      makeShop(src.deps)
      mkdirSync(path.join(src.config.dataDir, 'media', 'public', 's1'), { recursive: true })
      writeFileSync(path.join(src.config.dataDir, 'media', 'public', 's1', 'a-320.webp'), 'webp')
      const snap = createSnapshot(src.config.dataDir, dir).path
      return { dir, snap, target: tempDir('sf-restore-') }
    } finally {
      src.close()
    }
  }
  const cases: [string, (snap: string) => void][] = [
    [
      'a media file that is a symlink to /etc/passwd',
      (snap) => symlinkSync('/etc/passwd', path.join(snap, 'media', 'public', 's1', 'b-320.webp')),
    ],
    [
      'storefront.db as a symlink',
      (snap) => {
        const real = path.join(snap, '..', 'elsewhere.db')
        writeFileSync(real, '')
        rmSync(path.join(snap, 'storefront.db'))
        symlinkSync(real, path.join(snap, 'storefront.db'))
      },
    ],
    [
      'a hard link in media',
      (snap) => linkSync(path.join(snap, 'manifest.json'), path.join(snap, 'media', 'public', 's1', 'c-320.webp')),
    ],
    ['a FIFO', (snap) => Bun.spawnSync(['mkfifo', path.join(snap, 'media', 'pipe')])],
  ]
  for (const [name, tamper] of cases) {
    test(`${name} → BAD_SNAPSHOT, nothing restored`, () => {
      const { dir, snap, target } = snapshotOf()
      try {
        tamper(snap)
        let err: unknown
        try {
          restoreSnapshot(snap, target)
        } catch (e) {
          err = e
        }
        expect(err).toBeInstanceOf(BackupError)
        expect((err as BackupError).code).toBe('BAD_SNAPSHOT')
        expect((err as Error).message).toContain('nothing was restored')
        expect(readdirSync(target)).toEqual([])
      } finally {
        rmSync(dir, { recursive: true, force: true })
        rmSync(target, { recursive: true, force: true })
      }
    })
  }

  test('an untampered snapshot still restores, media included', () => {
    const { dir, snap, target } = snapshotOf()
    try {
      restoreSnapshot(snap, target)
      expect(existsSync(path.join(target, 'media', 'public', 's1', 'a-320.webp'))).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
      rmSync(target, { recursive: true, force: true })
    }
  })
})
