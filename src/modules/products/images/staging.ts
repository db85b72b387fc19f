/**
 * An upload's file part streamed straight to `DATA_DIR/media/staging/<id>` (0600) as it arrives,
 * with busboy (a well-kept streaming multipart parser: Bun's own `formData()` holds the whole
 * body in memory, and a queued upload held it twice). While an upload waits for the resize slot
 * it holds no bytes in memory; the service reads the file inside the slot.
 */
import busboy from 'busboy'
import { createWriteStream, mkdirSync, rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { createId } from '../../../lib/cuid'
import { PayloadTooLarge, ValidationError } from '../../../lib/errors'
import { mediaRoot } from './storage'

const stagingDir = (dataDir: string) => path.join(mediaRoot(dataDir), 'staging')

export interface StagedFile {
  /** The file part as a disk-backed Blob: nothing is read until the service asks. */
  file: Blob
  /** Where it is on disk: sharp reads it from there, and the original is copied from there. */
  path: string
  size: number
  remove(): Promise<void>
}

/** Leftovers of uploads cut off by a crash go at start (the folder comes back with the next upload). */
export function resetStaging(dataDir: string): void {
  rmSync(stagingDir(dataDir), { recursive: true, force: true })
}

const notMultipart = () =>
  new ValidationError('file', 'required', "Send the image as the multipart/form-data field 'file'")

/**
 * One file part on disk. `size` stops at the limit + 1: a larger file is cut there, and the service refuses it (413).
 */
export interface StagedPart {
  file: Blob
  path: string
  size: number
  /** The name the browser gave the file (shown beside its error; never used for a path). */
  filename: string
}

export interface StagedParts {
  files: StagedPart[]
  /** The text fields of the body (by default at most 10, 1 KiB each, e.g. a form token). */
  fields: Record<string, string>
  remove(): Promise<void>
}

/** How much text a body may carry beside its files: a whole form (the new-product one) needs more than a token. */
export interface TextLimits {
  count: number
  /** Bytes per field. */
  size: number
  /** Bytes of all fields together (past it the body is refused, nothing kept in memory). */
  total: number
}

const TOKEN_ONLY: TextLimits = { count: 10, size: 1024, total: 10 * 1024 }

/**
 * Streams up to `maxFiles` parts of the multipart field `file` of `request` to disk, each cut one
 * byte past `maxFileBytes` (busboy's per-file limit), and keeps the small text fields.
 */
export async function stageUploads(
  request: Request,
  dataDir: string,
  maxFileBytes: number,
  maxFiles: number,
  text: TextLimits = TOKEN_ONLY,
): Promise<StagedParts> {
  const type = request.headers.get('content-type') ?? ''
  if (!request.body || !type.toLowerCase().startsWith('multipart/form-data')) throw notMultipart()
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': type },
      limits: {
        files: maxFiles,
        fileSize: maxFileBytes + 1,
        fields: text.count,
        fieldSize: text.size,
        parts: maxFiles + text.count,
      },
    })
  } catch {
    throw notMultipart()
  }
  mkdirSync(stagingDir(dataDir), { recursive: true, mode: 0o700 })
  const parts: { target: string; size: number; filename: string }[] = []
  const fields: Record<string, string> = {}
  const writes: Promise<void>[] = []
  const remove = async () => void (await Promise.all(parts.map((p) => rm(p.target, { force: true }))))
  const done = new Promise<void>((resolve, reject) => {
    let textBytes = 0
    parser.on('field', (name, value) => {
      textBytes += name.length + value.length
      if (textBytes > text.total) return reject(new Error('text fields over their limit'))
      fields[name] = value
    })
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') return void stream.resume()
      const target = path.join(stagingDir(dataDir), createId())
      const part = { target, size: 0, filename: String(info.filename ?? '').slice(0, 200) }
      parts.push(part)
      const out = createWriteStream(target, { mode: 0o600 })
      stream.on('data', (chunk: Buffer) => (part.size += chunk.length))
      writes.push(
        new Promise<void>((ok, fail) => {
          out.on('finish', ok)
          out.on('error', fail)
        }),
      )
      stream.pipe(out)
    })
    parser.on('close', resolve)
    parser.on('error', reject)
  })
  try {
    Readable.fromWeb(request.body as never).pipe(parser)
    await done
    await Promise.all(writes)
  } catch {
    await remove()
    throw new ValidationError('file', 'invalid_format', 'The multipart body could not be read')
  }
  return {
    files: parts.map((p) => ({ file: Bun.file(p.target), path: p.target, size: p.size, filename: p.filename })),
    fields,
    remove,
  }
}

/**
 * Streams the multipart field `file` of `request` to disk; undefined when the body has no such
 * field. Past `maxFileBytes` → 413 (the partial file is removed).
 */
export async function stageUpload(
  request: Request,
  dataDir: string,
  maxFileBytes: number,
): Promise<StagedFile | undefined> {
  const staged = await stageUploads(request, dataDir, maxFileBytes, 1)
  const part = staged.files[0]
  if (!part) return undefined
  // busboy stops one byte past the limit, so exactly MEDIA_MAX_BYTES passes and one more doesn't.
  if (part.size > maxFileBytes) {
    await staged.remove()
    throw new PayloadTooLarge(maxFileBytes)
  }
  return { file: part.file, path: part.path, size: part.size, remove: staged.remove }
}
