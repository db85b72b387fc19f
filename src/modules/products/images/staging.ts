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
  size: number
  remove(): Promise<void>
}

/** Leftovers of uploads cut off by a crash go at start (the folder comes back with the next upload). */
export function resetStaging(dataDir: string): void {
  rmSync(stagingDir(dataDir), { recursive: true, force: true })
}

const notMultipart = () => new ValidationError('file', 'required', "Send the image as the multipart/form-data field 'file'")

/**
 * Streams the multipart field `file` of `request` to disk; undefined when the body has no such
 * field. Past `maxFileBytes` → 413 (the partial file is removed).
 */
export async function stageUpload(request: Request, dataDir: string, maxFileBytes: number): Promise<StagedFile | undefined> {
  const type = request.headers.get('content-type') ?? ''
  if (!request.body || !type.toLowerCase().startsWith('multipart/form-data')) throw notMultipart()
  let parser: busboy.Busboy
  try {
    parser = busboy({ headers: { 'content-type': type }, limits: { files: 1, fileSize: maxFileBytes + 1, fields: 10, fieldSize: 1024, parts: 11 } })
  } catch {
    throw notMultipart()
  }
  mkdirSync(stagingDir(dataDir), { recursive: true, mode: 0o700 })
  const target = path.join(stagingDir(dataDir), createId())
  const remove = () => rm(target, { force: true })
  let size = 0
  let written: Promise<void> | undefined
  let tooLarge = false
  const done = new Promise<void>((resolve, reject) => {
    parser.on('file', (name, stream) => {
      if (name !== 'file' || written) return void stream.resume()
      const out = createWriteStream(target, { mode: 0o600 })
      stream.on('data', (chunk: Buffer) => (size += chunk.length))
      stream.on('limit', () => (tooLarge = true))
      written = new Promise<void>((ok, fail) => {
        out.on('finish', ok)
        out.on('error', fail)
      })
      stream.pipe(out)
    })
    parser.on('close', resolve)
    parser.on('error', reject)
  })
  try {
    Readable.fromWeb(request.body as never).pipe(parser)
    await done
    await written
  } catch (err) {
    await remove()
    if (err instanceof ValidationError) throw err
    throw new ValidationError('file', 'invalid_format', 'The multipart body could not be read')
  }
  // busboy stops one byte past the limit, so exactly MEDIA_MAX_BYTES passes and one more doesn't.
  if (tooLarge || size > maxFileBytes) {
    await remove()
    throw new PayloadTooLarge(maxFileBytes)
  }
  if (!written) return undefined
  return { file: Bun.file(target), size, remove }
}
