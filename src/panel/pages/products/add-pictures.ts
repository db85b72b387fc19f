/**
 * Staged pictures added to a product one by one through `uploadImage` (the API's verb): shared by
 * the editor's picture form and the new-product form, which carries pictures picked before the
 * product existed. A refused file is named with its reason; the others stay.
 */
import type { Ctx } from '../../../kernel/context'
import { AppError } from '../../../lib/errors'
import { uploadImage, type StagedPart } from '../../../modules/products'
import type { PageReq } from '../kit'
import { pictureProblem } from './picture-problems'
import type { PanelEnv } from '../../env'

export interface Added {
  added: number
  errors: string[]
  /** 201 when every file was taken, else the last refusal's. */
  status: number
  upgradeUrl?: string
}

/** The parts a file input sent: an empty input still sends one nameless, empty part. */
export const pickedParts = (files: StagedPart[]) => files.filter((f) => f.size > 0 || f.filename !== '')

export async function addPictures(
  kit: PanelEnv,
  c: PageReq,
  ctx: Ctx,
  productId: string,
  parts: (StagedPart | undefined)[],
): Promise<Added> {
  const p = c.p
  const w = p.w
  const out: Added = { added: 0, errors: [], status: 201 }
  for (const part of parts) {
    try {
      await uploadImage({ ctx, input: { productId, file: part?.file, path: part?.path } })
      out.added++
    } catch (e) {
      // A product gone or another store's is the page's to answer, not a file's problem.
      if (e instanceof AppError && (e.status === 404 || (e.status === 403 && e.code !== 'PLAN_REQUIRED'))) throw e
      const problem = pictureProblem(e, p.w, kit.deps.config)
      if (!problem) throw e
      out.errors.push(part?.filename ? w.products.fileProblem(part.filename, problem.message) : problem.message)
      out.status = problem.status
      out.upgradeUrl ??= problem.upgradeUrl
    }
  }
  return out
}
