/**
 * The 1 MiB body limit for bodies that don't declare their length. The gate answers 413 for a
 * declared `Content-Length` before anything is read; a chunked upload has none, so its body
 * readers are replaced by ones that count bytes and throw PayloadTooLarge past the limit
 * (Elysia wraps that in a ParseError; the error mapper unwraps it into the JSON 413), without
 * ever buffering more than the limit. Bun's own `maxRequestBodySize` answers with an empty 413,
 * so it is only a far-off backstop in server.ts.
 *
 * Why not an `onParse` hook: a function parse hook makes @elysiajs/openapi emit request bodies
 * with no content type, and it would run for every body route.
 */
import { PayloadTooLarge } from '../lib/errors'

/** Reads a stream up to `limit` bytes; throws PayloadTooLarge past it. */
export async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      reader.cancel().catch(() => {})
      throw new PayloadTooLarge(limit)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

/** For a request with a body and no Content-Length: its readers now enforce `limit`. */
export function limitUndeclaredBody(request: Request, limit: number): void {
  const body = request.body
  if (!body || request.headers.has('content-length')) return
  let bytes: Promise<Uint8Array> | undefined
  const read = () => (bytes ??= readLimited(body, limit))
  const text = async () => new TextDecoder().decode(await read())
  const type = request.headers.get('content-type') ?? ''
  Object.defineProperties(request, {
    bytes: { value: read },
    arrayBuffer: { value: async () => (await read()).slice().buffer },
    text: { value: text },
    json: { value: async () => JSON.parse(await text()) },
    blob: { value: async () => new Blob([await read()], { type }) },
    formData: { value: async () => new Response(await read(), { headers: { 'content-type': type } }).formData() },
  })
}
