/**
 * From uploaded bytes to WebP renditions, with sharp (libvips). The kind is recognised by the
 * bytes (never the file name or declared type); the pixel count is read from the header and
 * checked before anything is decoded, so a decompression bomb (a few KB declaring 30,000 ×
 * 30,000) costs a header read; sharp's own `limitInputPixels` backs that up during decoding.
 * Decoding, rotating and encoding run on libuv's worker threads (sharp is asynchronous), not on
 * the event loop: bench/images.ts measures list latency during parallel uploads. Callers run
 * `renditions` inside `inResizeSlot`.
 */
import type { Metadata } from 'sharp'
import { ValidationError, type ErrorReason } from '../../../lib/errors'
import { trimCAllocator } from '../../../lib/malloc-trim'
import { collections } from '../../../lib/memory-watch'
import { vips } from '../../../lib/vips'

/** Rendition widths: each not wider than the (oriented) original, which is never enlarged. */
export const WIDTHS = [320, 640, 1280] as const

export type ImageKind = 'jpeg' | 'png' | 'webp'

/**
 * Uploads resized at once; the rest wait their turn on disk (staging.ts). libvips' threads are
 * off the event loop but not off its CPU: on a small machine 20 concurrent resizes took four
 * worker threads against the one event-loop thread and pushed the list p99 to hundreds of ms
 * (bench/images.ts). One at a time keeps most of a core for requests and bounds decoded pixels
 * in memory to one image. Waiters are served store by store in turn, so one store's queue never
 * stands between another store and its next resize.
 */
const RESIZE_SLOTS = 1
let busy = 0
const waiting = new Map<string, (() => void)[]>()

function nextWaiter(): (() => void) | undefined {
  for (const [storeId, queue] of waiting) {
    const next = queue.shift()
    // The served store goes to the back of the rotation (a Map keeps insertion order).
    waiting.delete(storeId)
    if (queue.length) waiting.set(storeId, queue)
    if (next) return next
  }
  return undefined
}

export async function inResizeSlot<T>(storeId: string, fn: () => Promise<T>): Promise<T> {
  if (busy >= RESIZE_SLOTS) {
    await new Promise<void>((resolve) => {
      const queue = waiting.get(storeId)
      if (queue) queue.push(resolve)
      else waiting.set(storeId, [resolve])
    })
  } else busy++
  try {
    // The chunks of the bodies streamed to disk so far are garbage (ArrayBuffers outside the
    // JavaScript heap): collected before libvips allocates, not on top of it (docs/decisions/031).
    if (collections.aroundResizes) Bun.gc(true)
    return await fn()
  } finally {
    // The store that just had the slot waits behind every other store; then the slot goes
    // straight to the next waiter (busy stays counted), or is freed.
    const mine = waiting.get(storeId)
    if (mine) waiting.delete(storeId), waiting.set(storeId, mine)
    const next = nextWaiter()
    if (next) next()
    else {
      busy--
      // The slot is idle: the uploads' bytes (the original, the pixels: ArrayBuffers outside
      // the JavaScript heap) are collected now rather than at the engine's next collection, and
      // what libvips freed goes back to the kernel (lib/malloc-trim.ts; docs/decisions/031).
      if (collections.aroundResizes) Bun.gc(true)
      trimCAllocator()
    }
  }
}

/** Magic bytes: JPEG FF D8 FF; PNG's 8-byte signature; WebP is RIFF….WEBP. */
export function sniff(b: Uint8Array): ImageKind | undefined {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg'
  if (b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v)) return 'png'
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp'
  return undefined
}
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to))

export interface Rendition {
  width: number
  height: number
  data: Uint8Array
}

const bad = (reason: ErrorReason, message: string, extra?: Record<string, unknown>) =>
  new ValidationError('file', reason, message, extra)

/** The widths to make for an image `width` pixels wide (after orientation). */
export function widthsFor(width: number): number[] {
  const top = Math.min(width, WIDTHS[WIDTHS.length - 1])
  return [...WIDTHS.filter((w) => w < top), top]
}

/**
 * Checks and re-encodes an upload: 400 `unsupported_type` (not JPEG/PNG/WebP by content),
 * `invalid_image` (the header or data doesn't decode as what the magic bytes claim),
 * `too_many_pixels` (over `maxPixels`, from the header). EXIF, GPS, ICC and XMP are dropped
 * (sharp keeps no metadata unless asked); the EXIF orientation is applied first.
 */
export async function renditions(bytes: Uint8Array | string, maxPixels: number): Promise<Rendition[]> {
  // A path (a staged upload): only its first bytes are read here; sharp reads the rest itself.
  const kind = sniff(
    typeof bytes === 'string' ? new Uint8Array(await Bun.file(bytes).slice(0, 12).arrayBuffer()) : bytes,
  )
  if (!kind) throw bad('unsupported_type', 'file must be a JPEG, PNG or WebP image (recognised by its content)')
  const sharp = await vips()
  let meta: Metadata
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata()
  } catch {
    throw bad('invalid_image', `file starts like a ${kind.toUpperCase()} but is not a readable image`)
  }
  if (meta.format !== kind || !meta.width || !meta.height)
    throw bad('invalid_image', `file starts like a ${kind.toUpperCase()} but is not a readable image`)
  if (meta.width * meta.height > maxPixels) {
    throw bad(
      'too_many_pixels',
      `file is ${meta.width} × ${meta.height} pixels; at most ${maxPixels} pixels are accepted`,
      { maxPixels, width: meta.width, height: meta.height },
    )
  }
  // EXIF orientations 5–8 turn the image a quarter: width and height swap.
  const orientedWidth = (meta.orientation ?? 1) >= 5 ? meta.height : meta.width
  const widths = widthsFor(orientedWidth)
  return encode(bytes, kind, widths, maxPixels)
}

async function encode(
  bytes: Uint8Array | string,
  kind: ImageKind,
  widths: number[],
  maxPixels: number,
): Promise<Rendition[]> {
  const sharp = await vips()
  try {
    // Decode once, at the largest width (JPEG shrinks on load), to raw pixels; the smaller
    // renditions are made from those, not by decoding the upload again.
    const top = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', sequentialRead: true })
      .rotate()
      .resize({ width: widths[widths.length - 1], withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true })
    const raw = { raw: { width: top.info.width, height: top.info.height, channels: top.info.channels } }
    return await Promise.all(
      widths.map(async (w) => {
        const img = sharp(top.data, raw)
        const { data, info } = await (w < top.info.width ? img.resize({ width: w }) : img)
          .webp({ quality: 80 })
          .toBuffer({ resolveWithObject: true })
        return { width: info.width, height: info.height, data }
      }),
    )
  } catch {
    throw bad('invalid_image', `file is not a complete, readable ${kind.toUpperCase()} image`)
  }
}
