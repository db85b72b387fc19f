/**
 * Where image files live: `DATA_DIR/media/public/<storeId>/<imageId>-<width>.webp` (served at
 * `/media/<storeId>/<imageId>-<width>.webp`, public by nature) and the uploaded bytes as
 * received under `DATA_DIR/media/originals/<storeId>/<imageId>` (0600, never served: they may
 * carry EXIF/GPS; kept so renditions can be made again). Names are built from ids only, never
 * from anything a client sent.
 */
import { lstatSync, readdirSync, realpathSync } from 'node:fs'
import { chmod, copyFile, mkdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'

export const mediaRoot = (dataDir: string) => path.join(dataDir, 'media')
const publicDir = (dataDir: string, storeId: string) => path.join(mediaRoot(dataDir), 'public', storeId)
const originalsDir = (dataDir: string, storeId: string) => path.join(mediaRoot(dataDir), 'originals', storeId)

export const renditionName = (imageId: string, width: number) => `${imageId}-${width}.webp`

export function mediaUrl(storeId: string, imageId: string, width: number, publicUrl?: string): string {
  return `${publicUrl ?? ''}/media/${storeId}/${renditionName(imageId, width)}`
}

export interface ServedName {
  file: string
  storeId: string
  imageId: string
}

/** The file behind a served name, or undefined when the name is not one this module makes. */
const SERVED = /^([a-z0-9]{1,64})\/(([a-z0-9]{1,64})-\d{1,5}\.webp)$/
export function servedFile(dataDir: string, rel: string): ServedName | undefined {
  const m = SERVED.exec(rel)
  return m ? { file: path.join(mediaRoot(dataDir), 'public', m[1]!, m[2]!), storeId: m[1]!, imageId: m[3]! } : undefined
}

/**
 * The file to send, or undefined: it must be a regular file with one link whose real path is
 * under DATA_DIR/media/public, so a link planted in the media folder (a tampered restore, a
 * careless operator) never serves a file from elsewhere.
 */
export function realServedFile(dataDir: string, file: string): string | undefined {
  try {
    const st = lstatSync(file)
    if (!st.isFile() || st.nlink !== 1) return undefined
    const root = realpathSync(path.join(mediaRoot(dataDir), 'public')) + path.sep
    const real = realpathSync(file)
    return real.startsWith(root) ? real : undefined
  } catch {
    return undefined
  }
}

/** Store ids that have a media folder (public or originals). */
export function storesWithMedia(dataDir: string): string[] {
  const ids = new Set<string>()
  for (const kind of ['public', 'originals']) {
    try {
      for (const e of readdirSync(path.join(mediaRoot(dataDir), kind))) ids.add(e)
    } catch {
      // No folder yet: no media of that kind.
    }
  }
  return [...ids]
}

/** Removes every file of a store whose rows are gone. */
export async function removeStoreMedia(dataDir: string, storeId: string): Promise<void> {
  await Promise.all([
    rm(publicDir(dataDir, storeId), { recursive: true, force: true }),
    rm(originalsDir(dataDir, storeId), { recursive: true, force: true }),
  ])
}

export async function saveImage(
  dataDir: string,
  storeId: string,
  imageId: string,
  /** The uploaded bytes, or the path of a file holding them (copied, never read into memory). */
  original: Uint8Array | string,
  renditions: { width: number; data: Uint8Array }[],
): Promise<void> {
  const pub = publicDir(dataDir, storeId)
  const orig = originalsDir(dataDir, storeId)
  await Promise.all([mkdir(pub, { recursive: true, mode: 0o755 }), mkdir(orig, { recursive: true, mode: 0o700 })])
  await Promise.all([
    (typeof original === 'string'
      ? copyFile(original, path.join(orig, imageId))
      : writeFile(path.join(orig, imageId), original, { mode: 0o600 })
    ).then(() => chmod(path.join(orig, imageId), 0o600)),
    ...renditions.map((r) => writeFile(path.join(pub, renditionName(imageId, r.width)), r.data, { mode: 0o644 })),
  ])
}

/** Removes an image's files; missing files are fine (a failed upload may not have written all). */
export async function removeImage(dataDir: string, storeId: string, imageId: string, widths: number[]): Promise<void> {
  await Promise.all([
    rm(path.join(originalsDir(dataDir, storeId), imageId), { force: true }),
    ...widths.map((w) => rm(path.join(publicDir(dataDir, storeId), renditionName(imageId, w)), { force: true })),
  ])
}
