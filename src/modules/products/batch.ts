/**
 * Many products' writes in one transaction or none (the panel's bulk edit and CSV import). Each
 * item runs the verbs' own rules inside the one write (insertProductTx, changeProductTx, after the
 * API's schema), so a batch refuses exactly what the API would. A failing item does not stop the
 * others from being tried, so every failing item is reported; then nothing is kept.
 */
import type { Ctx } from '../../kernel/context'
import type { Tx } from '../../db/client'
import { write, type Fx } from '../../kernel/write'
import { AppError } from '../../lib/errors'

/** One refused item of a batch: its key (a cell, a CSV line) and the verb's error. */
export interface ItemProblem<K = string> {
  key: K
  error: unknown
}

/** A batch some of whose items were refused: nothing of it was written. */
export class BatchRefused<K = string> extends AppError {
  constructor(readonly problems: ItemProblem<K>[]) {
    super('VALIDATION_ERROR', `${problems.length} item(s) of the batch were refused; nothing was written`, {
      field: 'items',
      reason: 'not_allowed',
    })
  }
}

/** Thrown to roll a dry run back once its result is known. */
class DryRun<R> {
  constructor(readonly result: R) {}
}

/**
 * `run` does the batch's work inside one write, reporting refused items through `refuse`; any
 * refusal rolls the whole write back (BatchRefused). A dry run always rolls back: it answers what
 * the write would have done, checked by the same rules against the same state. `dryRun` may
 * decide from the result (an apply that changes nothing writes nothing).
 */
export function allOrNothing<R, K>(
  ctx: Ctx,
  run: (tx: Tx, fx: Fx, refuse: (key: K, error: unknown) => void) => R,
  opts: { dryRun?: boolean | ((result: R) => boolean) } = {},
): R {
  try {
    return write(ctx, (tx, fx) => {
      const problems: ItemProblem<K>[] = []
      const result = run(tx, fx, (key, error) => {
        // A failure that is not the item's (the disk, a bug) ends the batch as it is.
        if (!(error instanceof AppError) || error.status >= 500) throw error
        problems.push({ key, error })
      })
      if (problems.length > 0) throw new BatchRefused(problems)
      if (typeof opts.dryRun === 'function' ? opts.dryRun(result) : opts.dryRun) throw new DryRun(result)
      return result
    })
  } catch (e) {
    if (e instanceof DryRun) return e.result as R
    throw e
  }
}
