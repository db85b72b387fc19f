import {
  CategoryCreate,
  CategoryUpdate,
  createCategory,
  deleteCategory,
  getCategory,
  listCategories,
  moveCategory,
  updateCategory,
} from '../../modules/categories'
import { checkBody } from '../../plugins/validation-errors'
import { html, raw } from '../../shop/html'
import { can, form, layout, submitFor, type Frame } from '../views'
import { banner, checkbox, input, notice } from './controls'
import { confirmPage, doneOf, guarded, refusal } from './crud'
import type { Words } from '../words'
import { field, ticked, type PageReq, type PageRoute, type Problem } from './kit'
import type { PanelEnv } from '../env'

type Category = ReturnType<typeof getCategory>
const at = (id: string) => `/admin/categories/${encodeURIComponent(id)}`

function listPage(
  f: Frame,
  d: { rows: Category[]; name: string; errors: Record<string, string>; problem?: Problem; done?: string },
): string {
  const w = f.w
  const writable = can(f, 'categories:write')
  const move = (c: Category, by: 'up' | 'down', label: string, name: string) =>
    form(
      f,
      `${at(c.id)}/move`,
      html`<input type="hidden" name="by" value="${by}">${submitFor('secondary', name, label)}`,
    )
  const rows = d.rows.map(
    (c, i) => html`<li><p><strong>${c.name}</strong>${
      c.isActive ? '' : html` <span class="badge">${w.categories.inactive}</span>`
    }</p>
    ${
      writable
        ? html`<div class="actions">${
            i > 0 ? move(c, 'up', w.common.moveUp, w.categories.moveUpOf(c.name)) : ''
          }${i < d.rows.length - 1 ? move(c, 'down', w.common.moveDown, w.categories.moveDownOf(c.name)) : ''}
        <a class="button secondary" href="${at(c.id)}"
          aria-label="${w.categories.renameOf(c.name)}">${w.categories.rename}</a>
        <a class="button secondary" href="${at(c.id)}/delete"
          aria-label="${w.categories.removeOf(c.name)}">${w.common.delete}</a></div>`
        : html`<p><a href="${at(c.id)}">${c.name}</a></p>`
    }</li>`,
  )
  return layout(
    f,
    w.nav.categories,
    html`${notice(d.done)}<p class="hint">${w.categories.intro}</p>
    ${d.rows.length ? html`<ol class="list">${rows}</ol>` : html`<p>${w.categories.none}</p>`}
    ${
      writable
        ? html`<section aria-labelledby="add-h"><h2 id="add-h">${w.categories.add}</h2>${banner(
            f.w,
            d.problem,
            d.errors,
          )}
      ${form(
        f,
        '/admin/categories',
        html`${input({
          id: 'name',
          label: w.categories.name,
          value: d.name,
          errors: d.errors,
          attrs: 'required maxlength="200"',
        })}<button type="submit">${w.categories.add}</button>`,
        'novalidate',
      )}</section>`
        : ''
    }`,
  )
}

function editPage(
  f: Frame,
  d: {
    id: string
    title: string
    name: string
    active: boolean
    errors: Record<string, string>
    problem?: Problem
    done?: string
  },
): string {
  const w = f.w
  const writable = can(f, 'categories:write')
  return layout(
    f,
    d.title,
    html`${notice(d.done)}${banner(f.w, d.problem, d.errors)}${
      writable ? '' : html`<p class="hint">${w.categories.readOnly}</p>`
    }
    ${form(
      f,
      at(d.id),
      html`<fieldset class="plain"${raw(writable ? '' : ' disabled')}><legend class="sr-only">${d.title}</legend>
      ${input({
        id: 'name',
        label: w.categories.name,
        value: d.name,
        errors: d.errors,
        attrs: 'required maxlength="200"',
      })}
      ${checkbox('isActive', 'isActive', w.common.shownInShop, d.active)}</fieldset>
      ${writable ? html`<p><button type="submit">${w.common.save}</button></p>` : ''}`,
      'novalidate',
    )}
    <p><a href="/admin/categories">${w.categories.back}</a></p>`,
  )
}

/** A duplicate slug is the name's doing, in the category's words. */
const special = (w: Words) => (e: { code: string }) =>
  e.code === 'DUPLICATE_SLUG' ? { field: 'name', message: w.categories.slugTaken } : undefined

export function categoryPages(kit: PanelEnv): PageRoute[] {
  const rowsOf = (c: PageReq) => listCategories({ ctx: c.ctx, input: { limit: 100 } }).data
  const list = (
    c: PageReq,
    status: number,
    d: { name?: string; errors?: Record<string, string>; problem?: Problem; done?: string } = {},
  ) =>
    kit.render(c.p, c.set, status, (f) =>
      listPage(f, { rows: rowsOf(c), name: d.name ?? '', errors: d.errors ?? {}, problem: d.problem, done: d.done }),
    )
  const edit = (
    c: PageReq,
    status: number,
    d: {
      name: string
      active: boolean
      title: string
      errors?: Record<string, string>
      problem?: Problem
      done?: string
    },
  ) => kit.render(c.p, c.set, status, (f) => editPage(f, { id: c.params.id!, errors: {}, ...d }))

  return [
    {
      method: 'get',
      path: '/admin/categories',
      need: 'categories:read',
      handler: (c) => list(c, 200, { done: doneOf(c, c.w.categories.done) }),
    },
    {
      method: 'post',
      path: '/admin/categories',
      need: 'categories:write',
      handler: (c) => {
        const name = (field(c.body, 'name') ?? '').trim()
        try {
          createCategory({ ctx: c.ctx, input: checkBody(CategoryCreate, { name }) })
          return kit.seeOther(c.set, '/admin/categories?done=saved')
        } catch (e) {
          const r = refusal(c, e, special(c.w))
          if (!r) throw e
          return list(c, r.status, { name, ...r })
        }
      },
    },
    {
      method: 'get',
      path: '/admin/categories/:id',
      need: 'categories:read',
      owns: 'categories',
      handler: (c) =>
        guarded(kit, c, () => {
          const cat = getCategory({ ctx: c.ctx, input: { id: c.params.id! } })
          return edit(c, 200, {
            name: cat.name,
            active: cat.isActive,
            title: c.w.categories.editTitle(cat.name),
            done: doneOf(c, c.w.categories.done),
          })
        }),
    },
    {
      method: 'post',
      path: '/admin/categories/:id',
      need: 'categories:write',
      owns: 'categories',
      handler: (c) =>
        guarded(kit, c, () => {
          const name = (field(c.body, 'name') ?? '').trim()
          const active = ticked(c.body, 'isActive')
          try {
            updateCategory({
              ctx: c.ctx,
              input: { id: c.params.id!, ...checkBody(CategoryUpdate, { name, isActive: active }) },
            })
            return kit.seeOther(c.set, `${at(c.params.id!)}?done=saved`)
          } catch (e) {
            const r = refusal(c, e, special(c.w))
            if (!r || r.status === 404 || r.status === 403) throw e
            return edit(c, r.status, {
              name,
              active,
              title: c.w.categories.editTitle(getCategory({ ctx: c.ctx, input: { id: c.params.id! } }).name),
              ...r,
            })
          }
        }),
    },
    {
      method: 'post',
      path: '/admin/categories/:id/move',
      need: 'categories:write',
      owns: 'categories',
      handler: (c) =>
        guarded(kit, c, () => {
          moveCategory({ ctx: c.ctx, input: { id: c.params.id!, by: field(c.body, 'by') === 'up' ? -1 : 1 } })
          return kit.seeOther(c.set, '/admin/categories?done=moved')
        }),
    },
    {
      method: 'get',
      path: '/admin/categories/:id/delete',
      need: 'categories:write',
      owns: 'categories',
      handler: (c) =>
        guarded(kit, c, () => {
          const cat = getCategory({ ctx: c.ctx, input: { id: c.params.id! } })
          return kit.render(c.p, c.set, 200, (f) =>
            confirmPage(f, {
              title: c.w.categories.removeTitle(cat.name),
              text: c.w.categories.removeText,
              action: `${at(cat.id)}/delete`,
              back: '/admin/categories',
            }),
          )
        }),
    },
    {
      method: 'post',
      path: '/admin/categories/:id/delete',
      need: 'categories:write',
      owns: 'categories',
      handler: (c) =>
        guarded(kit, c, () => {
          deleteCategory({ ctx: c.ctx, input: { id: c.params.id! } })
          return kit.seeOther(c.set, '/admin/categories?done=deleted')
        }),
    },
  ]
}
