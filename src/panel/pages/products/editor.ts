/**
 * The product editor (new and existing): name, description, price, compare-at price, stock,
 * category, active, and the variants table (add, remove and move rows by submit buttons, so it
 * works without the script); then the stored product's pictures (pictures-view.ts), whose forms
 * can't nest in the product's. Errors from the verbs sit next to their field; a save refused
 * because the product changed meanwhile says so and links the current version.
 */
import { html, raw, type Html } from '../../../shop/html'
import { can, confirmOrBack, form, layout, type Frame } from '../../views'
import { banner, checkbox, defaultSave, errorAt, input, notice, select } from '../controls'
import type { Problem } from '../kit'
import type { ProductForm } from './form'
import { picturesSection, type PicturesView } from './pictures-view'

export interface EditorData {
  id?: string
  title: string
  form: ProductForm
  categories: { id: string; name: string }[]
  currency: string
  errors: Record<string, string>
  problem?: Problem
  done?: string
  /** The stored product changed since the form was opened: this save was not applied. */
  conflict?: boolean
  /** An existing product's pictures. */
  pictures?: PicturesView
  /** MB per picture (the new-product form's file input says it). */
  maxMb: number
  /** Pictures that came with a new-product form that is shown again (the browser can't re-fill a file input). */
  picked?: number
}

/** The new-product form's pictures: picked now, added once the product exists (the form posts as multipart). */
function newPictures(f: Frame, d: EditorData): Html {
  const w = f.w
  const again = d.picked ? 'file-again' : ''
  return html`<h2>${w.products.pictures}</h2>
    <label for="file">${w.products.addPictures}</label>
    <input id="file" name="file" type="file" multiple accept="image/jpeg,image/png,image/webp"
      aria-describedby="file-hint${again ? ` ${again}` : ''}">
    <p id="file-hint" class="hint">${w.products.picturesHint(d.maxMb)} ${w.products.picturesOnCreate}</p>
    ${again ? html`<p id="file-again" class="error">${w.products.pickAgain}</p>` : ''}`
}

function variantRows(f: Frame, d: EditorData): Html {
  const w = f.w
  const e = d.errors
  const writable = can(f, 'products:write')
  const last = d.form.variants.length - 1
  const rowButton = (action: string, label: string, text: string) => {
    const attrs = html`name="_action" value="${action}" class="secondary" aria-label="${label}"`
    return html`<button type="submit" ${attrs}>${text}</button>`
  }
  return html`${d.form.variants.map((v, i) => {
    const n = i + 1
    const up = i > 0 ? rowButton(`up-${i}`, w.products.moveUpLabel(n), w.common.moveUp) : ''
    const down = i < last ? rowButton(`down-${i}`, w.products.moveDownLabel(n), w.common.moveDown) : ''
    const remove = rowButton(`remove-${i}`, w.products.removeVariant(n), w.common.remove)
    return html`<fieldset class="variant"><legend>${w.products.variant(n)}${v.name ? html` · ${v.name}` : ''}</legend>
      ${v.id ? html`<input type="hidden" name="v${i}-id" value="${v.id}">` : ''}
      ${input({ id: `v${i}-name`, label: w.products.variantName, value: v.name, errors: e, attrs: 'maxlength="100"' })}
      <div class="pair">
        <div>${input({
          id: `v${i}-price`,
          label: w.products.variantPrice,
          value: v.price,
          errors: e,
          attrs: 'inputmode="decimal"',
        })}</div>
        <div>${input({
          id: `v${i}-stock`,
          label: w.products.variantStock,
          value: v.stock,
          errors: e,
          attrs: 'inputmode="numeric"',
        })}</div>
      </div>
      ${checkbox(`v${i}-isActive`, `v${i}-isActive`, w.products.variantActive, v.active)}
      ${errorAt(`v${i}-id`, e[`v${i}-id`])}
      ${writable ? html`<div class="actions">${up}${down}${remove}</div>` : ''}
    </fieldset>`
  })}`
}

export function editorPage(f: Frame, d: EditorData): string {
  const w = f.w
  const e = d.errors
  const writable = can(f, 'products:write')
  const action = d.id ? `/admin/products/${encodeURIComponent(d.id)}` : '/admin/products'
  const addVariant = w.products.addVariant
  const productPath = `/admin/products/${encodeURIComponent(d.id ?? '')}`
  // Enter in a field submits the form's first button: make that "save", not a row's "Remove".
  const fields = html`${writable ? defaultSave(w) : ''}
  <input type="hidden" name="updatedAt" value="${d.form.updatedAt}">
  <fieldset class="plain"${raw(writable ? '' : ' disabled')}><legend class="sr-only">${d.title}</legend>
    ${input({ id: 'name', label: w.common.name, value: d.form.name, errors: e, attrs: 'required maxlength="200"' })}
    ${input({
      id: 'description',
      label: w.common.description,
      value: d.form.description,
      errors: e,
      multiline: true,
      attrs: 'maxlength="10000"',
    })}
    <div class="pair">
      <div>${input({
        id: 'price',
        label: `${w.common.price} (${d.currency})`,
        value: d.form.price,
        errors: e,
        attrs: 'inputmode="decimal" required',
      })}</div>
      <div>${input({
        id: 'comparePrice',
        label: `${w.products.comparePrice} (${d.currency})`,
        value: d.form.comparePrice,
        errors: e,
        hint: w.products.comparePriceHint,
        attrs: 'inputmode="decimal"',
      })}</div>
    </div>
    ${input({
      id: 'stock',
      label: w.products.stock,
      value: d.form.stock,
      errors: e,
      hint: w.products.stockHint,
      attrs: 'inputmode="numeric"',
    })}
    ${select(
      'categoryId',
      'categoryId',
      w.products.category,
      [{ value: '', label: w.products.noCategory }, ...d.categories.map((c) => ({ value: c.id, label: c.name }))],
      d.form.categoryId,
      e,
    )}
    ${checkbox('isActive', 'isActive', w.common.active, d.form.active, w.common.shownInShop)}
    <h2>${w.products.variants}</h2>
    <p class="hint">${w.products.variantsHint}</p>
    <input type="hidden" name="variantCount" value="${d.form.variants.length}">
    ${variantRows(f, d)}
    ${writable ? html`<button type="submit" name="_action" value="add" class="secondary">${addVariant}</button>` : ''}
    ${!d.id && writable ? newPictures(f, d) : ''}
  </fieldset>
  ${
    writable
      ? html`<p><button type="submit" name="_action" value="save">${
          d.id ? w.common.save : w.products.create
        }</button></p>`
      : ''
  }`
  const reload = html`<a class="button" href="${productPath}">${w.products.reload}</a>`
  const changed = html`<p><strong>${w.products.changedTitle}</strong></p><p>${w.products.changedText}</p>`
  const conflict = d.conflict && d.id ? html`<div class="alert" role="alert">${changed}<p>${reload}</p></div>` : ''
  return layout(
    f,
    d.title,
    html`${notice(d.done)}${conflict}${banner(w, d.problem, e)}
    ${writable ? '' : html`<p class="hint">${w.products.readOnly}</p>`}
    <section>${form(f, action, fields, d.id ? 'novalidate' : 'novalidate enctype="multipart/form-data"')}</section>
    ${d.pictures ? picturesSection(d.pictures) : ''}
    ${
      d.id && writable
        ? html`<p><a class="button secondary" href="${productPath}/delete">${w.products.deleteProduct}</a></p>`
        : ''
    }
    <p><a href="/admin/products">${w.products.backToProducts}</a></p>`,
  )
}

export function deleteConfirmPage(f: Frame, p: { id: string; name: string }): string {
  const w = f.w
  return layout(
    f,
    w.products.deleteConfirmTitle(p.name),
    html`<section><p>${w.products.deleteConfirmText}</p>
    ${form(
      f,
      `/admin/products/${encodeURIComponent(p.id)}/delete`,
      confirmOrBack(w.products.confirmDelete, `/admin/products/${encodeURIComponent(p.id)}`, w.common.cancel),
    )}
    </section>`,
    { narrow: true },
  )
}
