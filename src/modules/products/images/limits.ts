import type { Config } from '../../../config'

const UPLOAD = /^\/api\/v1\/products\/[^/]+\/images\/?$/
/** Room for the multipart framing around the file (boundaries, part headers, other small fields). */
const MULTIPART_SLACK = 64 * 1024

/**
 * The body limit of the image upload, the one route exempt from the 1 MiB limit (the gate asks
 * before reading a byte); undefined for every other request. The file itself is held to
 * MEDIA_MAX_BYTES exactly by the service.
 */
export function uploadBodyLimit(method: string, path: string, config: Config): number | undefined {
  return method === 'POST' && UPLOAD.test(path) ? config.mediaMaxBytes + MULTIPART_SLACK : undefined
}
