import type { Config } from '../../../config'

/** Room for the multipart framing around the file (boundaries, part headers, other small fields). */
const MULTIPART_SLACK = 64 * 1024

/**
 * The body limit of a route declared `upload` (the image upload, the one route exempt from the
 * 1 MiB limit; the gate asks before reading a byte). The file itself is held to MEDIA_MAX_BYTES
 * exactly by the service.
 */
export const uploadBodyLimit = (config: Config): number => config.mediaMaxBytes + MULTIPART_SLACK

/**
 * The panel's picture form, sent without its script, carries every picked file in one body: at
 * most as many as a product may hold (MAX_PRODUCT_IMAGES), each held to MEDIA_MAX_BYTES by the
 * service. Streamed to disk like the API's (staging.ts), never held in memory.
 */
export const uploadsBodyLimit = (config: Config): number =>
  config.maxProductImages * config.mediaMaxBytes + MULTIPART_SLACK
