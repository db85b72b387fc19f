/**
 * The pages of one kind of store record, made from one spec: the list, a new record's form and
 * its POST, the record's form and its POST, and the delete confirmation and its POST. A refused
 * form comes back with its problems at their fields; a verb's 404 or 403 is a page (crud.ts
 * `guarded`). Discounts and shipping are made with it; a kind adds its own routes beside these.
 */
import type { OwnedTable } from '../../http/access'
import type { Ctx } from '../../kernel/context'
import type { AppError } from '../../lib/errors'
import type { StoreNeed } from '../route'
import { confirmPage, doneOf, guarded, refusal } from './crud'
import type { PageReq, PageRoute, Problem } from './kit'
import type { Words } from '../words'
import type { PanelEnv } from '../env'

/** The words the folded pages say, in the person's language. */
export interface CrudWords {
  add: string
  editTitle(label: string): string
  removeTitle(label: string): string
  removeText: string
  done: Record<string, string>
}

/** What a record's form page shows: the record (none for a new one), the form's values and its problems. */
export interface EditorData<Form> {
  id?: string
  title: string
  form: Form
  errors?: Record<string, string>
  problem?: Problem
  done?: string
}

export interface CrudSpec<Row extends { id: string }, Form> {
  /** The list's path; a record is `<base>/<id>`. */
  base: string
  read: StoreNeed
  write: StoreNeed
  owns: OwnedTable
  words(w: Words): CrudWords
  /** How a record is named in titles ("Edit SUMMER10"). */
  label(row: Row): string
  list(c: PageReq): Promise<Response>
  editor(c: PageReq, status: number, d: EditorData<Form>): Promise<Response>
  emptyForm(): Form
  readForm(body: unknown): Form
  formOf(row: Row, currency: string): Form
  get(ctx: Ctx, id: string): Row
  create(c: PageReq, form: Form): { id: string }
  update(c: PageReq, row: Row, form: Form): void
  remove(ctx: Ctx, id: string): void
  /** The kind's own words for a verb's refusal, before the shared ones. */
  special?(c: PageReq, form: Form): (e: AppError) => Problem | undefined
}

export function crudPages<Row extends { id: string }, Form>(kit: PanelEnv, s: CrudSpec<Row, Form>): PageRoute[] {
  const at = (id: string) => `${s.base}/${encodeURIComponent(id)}`
  const record = `${s.base}/:id`
  const idOf = (c: PageReq) => c.params.id ?? ''
  return [
    { method: 'get', path: s.base, need: s.read, handler: (c) => s.list(c) },
    {
      method: 'get',
      path: `${s.base}/new`,
      need: s.write,
      handler: (c) => s.editor(c, 200, { title: s.words(c.w).add, form: s.emptyForm() }),
    },
    {
      method: 'post',
      path: s.base,
      need: s.write,
      handler: (c) => {
        const form = s.readForm(c.body)
        try {
          const made = s.create(c, form)
          return kit.seeOther(c.set, `${at(made.id)}?done=saved`)
        } catch (e) {
          const r = refusal(c, e, s.special?.(c, form))
          if (!r) throw e
          return s.editor(c, r.status, { title: s.words(c.w).add, form, ...r })
        }
      },
    },
    {
      method: 'get',
      path: record,
      need: s.read,
      owns: s.owns,
      handler: (c) =>
        guarded(kit, c, () => {
          const row = s.get(c.ctx, idOf(c))
          const w = s.words(c.w)
          return s.editor(c, 200, {
            id: row.id,
            title: w.editTitle(s.label(row)),
            form: s.formOf(row, c.ctx.store.currency),
            done: doneOf(c, w.done),
          })
        }),
    },
    {
      method: 'post',
      path: record,
      need: s.write,
      owns: s.owns,
      handler: (c) =>
        guarded(kit, c, () => {
          const current = s.get(c.ctx, idOf(c))
          const form = s.readForm(c.body)
          try {
            s.update(c, current, form)
            return kit.seeOther(c.set, `${at(current.id)}?done=saved`)
          } catch (e) {
            const r = refusal(c, e, s.special?.(c, form))
            if (!r) throw e
            return s.editor(c, r.status, {
              id: current.id,
              title: s.words(c.w).editTitle(s.label(current)),
              form,
              ...r,
            })
          }
        }),
    },
    {
      method: 'get',
      path: `${record}/delete`,
      need: s.write,
      owns: s.owns,
      handler: (c) =>
        guarded(kit, c, () => {
          const row = s.get(c.ctx, idOf(c))
          const w = s.words(c.w)
          return kit.render(c.p, c.set, 200, (f) =>
            confirmPage(f, {
              title: w.removeTitle(s.label(row)),
              text: w.removeText,
              action: `${at(row.id)}/delete`,
              back: s.base,
            }),
          )
        }),
    },
    {
      method: 'post',
      path: `${record}/delete`,
      need: s.write,
      owns: s.owns,
      handler: (c) =>
        guarded(kit, c, () => {
          s.remove(c.ctx, idOf(c))
          return kit.seeOther(c.set, `${s.base}?done=deleted`)
        }),
    },
  ]
}
