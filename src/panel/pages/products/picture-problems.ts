/**
 * A picture verb's refusal in the person's words: the API's answers (400 `details.field: "file"`
 * with its reason, 413, 409 LIMIT_REACHED, 403 PLAN_REQUIRED, 429) each become one sentence shown
 * at the file input, next to the file's name.
 */
import type { Config } from '../../../config'
import { AppError, PayloadTooLarge, PlanRequired, RateLimited } from '../../../lib/errors'
import type { Words } from '../../words'

export interface PictureProblem {
  status: number
  message: string
  upgradeUrl?: string
}

const MB = 1024 * 1024

/** Undefined for errors that are not the person's to fix (they go to the error handler). */
export function pictureProblem(e: unknown, w: Words, config: Config): PictureProblem | undefined {
  if (e instanceof PlanRequired) return { status: e.status, message: w.problems.planLimit, upgradeUrl: e.upgradeUrl }
  if (e instanceof PayloadTooLarge)
    return { status: 413, message: w.products.tooLarge(Math.floor(config.mediaMaxBytes / MB)) }
  if (e instanceof RateLimited) return { status: 429, message: w.products.busy }
  if (!(e instanceof AppError) || e.status >= 500) return undefined
  const d = (e.details ?? {}) as { reason?: string; limit?: number; maxPixels?: number }
  if (e.code === 'LIMIT_REACHED')
    return { status: e.status, message: w.products.tooMany(d.limit ?? config.maxProductImages) }
  const message =
    d.reason === 'required'
      ? w.products.fileRequired
      : d.reason === 'too_many_pixels'
        ? w.products.tooManyPixels(Math.floor((d.maxPixels ?? config.mediaMaxPixels) / 1e6))
        : d.reason === 'unsupported_type'
          ? w.products.notAnImage
          : d.reason === 'invalid_image' || d.reason === 'invalid_format'
            ? w.products.unreadable
            : (w.problems.err[d.reason ?? 'other'] ?? w.problems.err.other!)
  return { status: e.status, message }
}
