/**
 * The catalog CSV pages: export (/admin/products/export.csv, streamed), import
 * (/admin/products/import: upload → dry run → apply). The dry run is the products module's
 * checkCatalogImport (in slices, between which other requests are served), the apply its
 * importCatalog (one transaction); between them the checked file waits in StagedImports
 * (staging.ts). Each takes the store's one import place (ImportAdmission) for its whole run.
 */
import {
  BatchRefused,
  checkCatalogImport,
  stageUploads,
  CSV_COLUMNS,
  CSV_MAX_BYTES,
  CSV_MAX_ROWS,
  CsvFileRefused,
  exportCatalogCsv,
  importCatalog,
  parseCatalogCsv,
  type CsvRow,
  type ImportPlace,
  type ImportReport,
} from '../../../modules/products'
import { RateLimited, ValidationError } from '../../../lib/errors'
import { finish } from '../../respond'
import { forbiddenPage } from '../../views'
import { field, problemOf, tokenOk, type PageReq, type PageRoute } from '../kit'
import { noted } from '../bulk/routes'
import { sha256, StagedImports } from './staging'
import { dryRunPage, importPage, type LineMessage } from './view'
import type { Words } from '../../words'
import type { PanelEnv } from '../../env'

function fileMessage(e: CsvFileRefused, w: Words, locale: string): string {
  if (e.problem === 'header') return w.bulk.fileHeader(CSV_COLUMNS.join(', '))
  if (e.problem === 'rows') return w.bulk.fileRows(CSV_MAX_ROWS.toLocaleString(locale))
  if (e.problem === 'bytes') return w.bulk.fileBytes(String(CSV_MAX_BYTES / 1024 / 1024))
  if (e.problem === 'encoding') return w.bulk.fileEncoding(e.line ?? 1)
  if (e.problem === 'nul') return w.bulk.fileNul(e.line ?? 1)
  if (e.problem === 'long') return w.bulk.fileLong(e.line ?? 1)
  return w.bulk.fileMalformed(e.line)
}

/**
 * A refused line's reason in the person's words: the file's own checks, else the API's error as the editor shows it.
 */
function lineMessage(key: ImportPlace, error: unknown, w: Words): LineMessage {
  const at = { line: key.line, ...(key.column ? { column: key.column } : {}) }
  if (error instanceof ValidationError) {
    const d = (error.details ?? {}) as {
      field?: string
      reason?: string
      conflictsWith?: number
      clash?: string
      expected?: string
      digits?: number
      currency?: string
      name?: string
    }
    if (d.expected === 'whole') return { ...at, message: w.bulk.expectWhole }
    if (d.expected === 'price') return { ...at, message: w.bulk.expectPrice }
    if (d.expected === 'decimals') return { ...at, message: w.bulk.expectDecimals(d.digits ?? 2, d.currency ?? '') }
    if (d.expected === 'boolean') return { ...at, message: w.bulk.expectBoolean }
    if (d.clash === 'product') return { ...at, message: w.bulk.conflicts(d.conflictsWith!) }
    if (d.clash === 'variant') return { ...at, message: w.bulk.variantTwice(d.conflictsWith!) }
    if (d.clash === 'single') return { ...at, message: w.bulk.mixedRows(d.conflictsWith!) }
    if (d.field === 'row') return { ...at, message: w.bulk.wrongWidth }
    if (d.field === 'categoryId')
      return {
        ...at,
        message:
          d.reason === 'duplicate'
            ? w.bulk.categoryAmbiguous
            : d.name
              ? w.bulk.categoryNamed(d.name)
              : w.bulk.categoryUnknown,
      }
  }
  const p = problemOf(error, w)
  return { ...at, message: p?.message ?? w.problems.err.other!, ...(p?.upgradeUrl ? { upgradeUrl: p.upgradeUrl } : {}) }
}

export function csvPages(kit: PanelEnv): PageRoute[] {
  const staged = new StagedImports(() => kit.deps.clock.now())
  const ownerOf = (c: PageReq) => ({ sessionId: c.person.session.id, storeId: c.ctx.store.id })
  const form = (c: PageReq, status: number, d: { error?: string; done?: string } = {}) =>
    kit.render(c.p, c.set, status, (f) => importPage(f, { currency: c.ctx.store.currency, ...d }))

  /** The refused lines of a BatchRefused in the person's words, in file order. */
  function refusedLines(c: PageReq, e: BatchRefused<ImportPlace>): LineMessage[] {
    const p = c.p
    return e.problems
      .map(({ key, error }) => lineMessage(key, error, p.w))
      .sort((a, b) => a.line - b.line || (a.column ?? '').localeCompare(b.column ?? ''))
  }

  /** The import's outcome: its report, or the lines it refused in the person's words. */
  async function run(
    c: PageReq,
    rows: CsvRow[],
    dryRun: boolean,
  ): Promise<{ report?: ImportReport; problems: LineMessage[] }> {
    const ctx = noted(c.ctx, 'import')
    try {
      const report = dryRun
        ? await checkCatalogImport({ ctx, input: { rows } })
        : importCatalog({ ctx, input: { rows, dryRun: false } })
      return { report, problems: [] }
    } catch (e) {
      if (!(e instanceof BatchRefused)) throw e
      return { problems: refusedLines(c, e as BatchRefused<ImportPlace>) }
    }
  }

  /** Runs `work` holding the store's one import place, or answers 429 with Retry-After. */
  async function alone(c: PageReq, work: () => Promise<Response>): Promise<Response> {
    let release: () => void
    try {
      release = kit.deps.imports.admit(c.ctx.store.id)
    } catch (e) {
      if (!(e instanceof RateLimited)) throw e
      return kit.render(
        c.p,
        c.set,
        429,
        (f) => importPage(f, { currency: c.ctx.store.currency, error: f.w.bulk.busy }),
        { 'retry-after': String(e.retryAfter) },
      )
    }
    try {
      return await work()
    } finally {
      release()
    }
  }

  async function parsed(c: PageReq, file: Blob): Promise<CsvRow[] | Response> {
    try {
      return await parseCatalogCsv(file)
    } catch (e) {
      if (!(e instanceof CsvFileRefused)) throw e
      const p = c.p
      return form(c, e.problem === 'bytes' ? 413 : 400, { error: fileMessage(e, p.w, p.w.shell.locale) })
    }
  }

  return [
    {
      method: 'get',
      path: '/admin/products/export.csv',
      need: 'products:read',
      handler: (c) => {
        const ctx = c.ctx
        const chunks = exportCatalogCsv(ctx)
        const encoder = new TextEncoder()
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const next = await chunks.next()
            if (next.done) controller.close()
            else controller.enqueue(encoder.encode(next.value))
          },
          async cancel() {
            await chunks.return(undefined)
          },
        })
        return finish(c.set, 200, body, {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="${ctx.store.slug}-products.csv"`,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        })
      },
    },
    {
      method: 'get',
      path: '/admin/products/import',
      need: 'products:write',
      handler: (c) => {
        const w = c.p.w
        const created = Math.max(0, Math.floor(Number(c.query.c)) || 0)
        const updated = Math.max(0, Math.floor(Number(c.query.u)) || 0)
        return form(c, 200, { done: c.query.done === 'imported' ? w.bulk.imported(created, updated) : undefined })
      },
    },
    {
      method: 'post',
      path: '/admin/products/import',
      need: 'products:write',
      // Streamed to disk by busboy and cut one byte past CSV_MAX_BYTES, never parsed whole by Elysia.
      upload: true,
      handler: async (c) => {
        const w = c.p.w
        let parts
        try {
          parts = await stageUploads(c.request, kit.deps.config.dataDir, CSV_MAX_BYTES, 1)
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e
          return form(c, 400, { error: w.bulk.chooseFile })
        }
        let file: Blob
        let name: string
        try {
          if (!tokenOk(c, parts.fields))
            return kit.render(c.p, c.set, 403, (f) => forbiddenPage(f, f.w.errors.crossSiteText))
          const part = parts.files[0]
          if (!part || part.size === 0) return form(c, 400, { error: w.bulk.chooseFile })
          if (part.size > CSV_MAX_BYTES)
            return form(c, 413, { error: w.bulk.fileBytes(String(CSV_MAX_BYTES / 1024 / 1024)) })
          // Held in memory (≤ 5 MiB) for the apply; the staged part on disk goes now.
          file = new Blob([await part.file.arrayBuffer()])
          name = part.filename || 'file.csv'
        } finally {
          await parts.remove()
        }
        return alone(c, async () => {
          const rows = await parsed(c, file)
          if (rows instanceof Response) return rows
          const outcome = await run(c, rows, true)
          const keep =
            outcome.report &&
            outcome.problems.length === 0 &&
            outcome.report.create.length + outcome.report.update.length > 0
          const s = keep ? staged.put(ownerOf(c), { name, file, hash: await sha256(file) }) : undefined
          return kit.render(c.p, c.set, 200, (f) =>
            dryRunPage(f, {
              name,
              rows: rows.length,
              ...outcome,
              ...(s ? { staged: { id: s.id, hash: s.hash } } : {}),
            }),
          )
        })
      },
    },
    {
      method: 'post',
      path: '/admin/products/import/apply',
      need: 'products:write',
      handler: async (c) => {
        const s = staged.get(field(c.body, 'id') ?? '', ownerOf(c), field(c.body, 'hash') ?? '')
        if (!s) return form(c, 409, { error: c.p.w.bulk.expired })
        return alone(c, async () => {
          const rows = await parsed(c, s.file)
          if (rows instanceof Response) return rows
          // Planned and checked again inside the apply's transaction: the catalog may have moved since the dry run.
          const outcome = await run(c, rows, false)
          if (!outcome.report)
            return kit.render(c.p, c.set, 409, (f) => dryRunPage(f, { name: s.name, rows: rows.length, ...outcome }))
          staged.drop(s.id)
          const { create, update } = outcome.report
          return kit.seeOther(c.set, `/admin/products/import?done=imported&c=${create.length}&u=${update.length}`)
        })
      },
    },
  ]
}
