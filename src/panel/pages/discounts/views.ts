/**
 * The discount pages' views and form: the list (code, value, uses, expiry, state) and the editor,
 * whose fields become the API's DiscountCreate / DiscountUpdate body (form → body here, so the
 * schema and the module refuse it at the same field as over the API).
 */
import type { getDiscount } from '../../../modules/discounts'
import { html } from '../../../shop/html'
import { formatMoney } from '../../../shop/i18n'
import { can, form, layout, type Frame } from '../../views'
import { checkbox, input, notice, select } from '../controls'
import { crudEditor } from '../crud'
import { amountText, field, numberField, ticked, type Problem } from '../kit'

export type Discount = ReturnType<typeof getDiscount>
export const at = (id: string) => `/admin/discounts/${encodeURIComponent(id)}`

export interface DiscountForm {
  code: string
  type: string
  value: string
  minOrderAmount: string
  maxUses: string
  expires: string
  active: boolean
}

const str = (v: number | null) => (v === null ? '' : String(v))
export const emptyForm = (): DiscountForm => ({
  code: '',
  type: 'percentage',
  value: '',
  minOrderAmount: '',
  maxUses: '',
  expires: '',
  active: true,
})
export const formOf = (d: Discount, currency: string): DiscountForm => ({
  code: d.code,
  type: d.type,
  value: d.type === 'fixed' ? amountText(d.value, currency) : String(d.value),
  minOrderAmount: amountText(d.minOrderAmount, currency),
  maxUses: str(d.maxUses),
  expires: d.expiresAt?.slice(0, 10) ?? '',
  active: d.isActive,
})

export const readForm = (body: unknown): DiscountForm => ({
  code: (field(body, 'code') ?? '').trim(),
  type: field(body, 'type') ?? '',
  value: field(body, 'value') ?? '',
  minOrderAmount: field(body, 'minOrderAmount') ?? '',
  maxUses: field(body, 'maxUses') ?? '',
  expires: (field(body, 'expiresAt') ?? '').trim(),
  active: ticked(body, 'isActive'),
})

/**
 * The API body of the form. An expiry is a day, ending at its last millisecond in UTC; an
 * unchanged day (`keep`, the stored expiry) is left out, so saving keeps a time set over the API.
 */
export function bodyOf(f: DiscountForm, keep?: string | null): Record<string, unknown> {
  const num = (s: string) => numberField({ v: s }, 'v')
  const body: Record<string, unknown> = {
    code: f.code,
    type: f.type,
    value: num(f.value) ?? '',
    minOrderAmount: num(f.minOrderAmount) ?? null,
    maxUses: num(f.maxUses) ?? null,
    isActive: f.active,
  }
  if (keep === undefined || f.expires !== (keep?.slice(0, 10) ?? ''))
    body.expiresAt =
      f.expires === '' ? null : /^\d{4}-\d{2}-\d{2}$/.test(f.expires) ? `${f.expires}T23:59:59.999Z` : f.expires
  return body
}

export function listPage(f: Frame, d: { rows: Discount[]; currency: string; now: number; done?: string }): string {
  const w = f.w
  const writable = can(f, 'discounts:write')
  const shownValue = (x: Discount) =>
    x.type === 'percentage' ? `${x.value} %` : formatMoney(x.value, d.currency, f.w.shell.locale)
  const state = (x: Discount) =>
    !x.isActive
      ? w.common.inactive
      : x.expiresAt && Date.parse(x.expiresAt) <= d.now
        ? w.discounts.expired
        : w.common.active
  const edit = (x: Discount) =>
    html`<a href="${at(x.id)}" aria-label="${w.discounts.editOf(x.code)}"><strong>${x.code}</strong></a>`
  const rows = d.rows.map(
    (x) => html`<li><p>${edit(x)} · ${shownValue(x)} <span class="badge">${state(x)}</span></p>
    <p class="hint">${w.discounts.used(x.usedCount, x.maxUses)}${
      x.expiresAt ? ` · ${w.discounts.until(x.expiresAt.slice(0, 10))}` : ''
    }</p>
    ${
      writable
        ? html`<div class="actions">${form(
            f,
            `${at(x.id)}/active`,
            html`<input type="hidden" name="isActive" value="${
              x.isActive ? '0' : '1'
            }"><button type="submit" class="secondary" aria-label="${
              x.isActive ? w.discounts.deactivateOf(x.code) : w.discounts.activateOf(x.code)
            }">${x.isActive ? w.discounts.deactivate : w.discounts.activate}</button>`,
          )}<a class="button secondary" href="${at(x.id)}/delete"
            aria-label="${w.discounts.removeOf(x.code)}">${w.common.delete}</a></div>`
        : ''
    }</li>`,
  )
  return layout(
    f,
    w.nav.discounts,
    html`${notice(d.done)}${
      writable ? html`<p><a class="button" href="/admin/discounts/new">${w.discounts.add}</a></p>` : ''
    }
    ${d.rows.length ? html`<ul class="list">${rows}</ul>` : html`<p>${w.discounts.none}</p>`}`,
  )
}

export function editorPage(
  f: Frame,
  d: {
    id?: string
    title: string
    form: DiscountForm
    currency: string
    errors: Record<string, string>
    problem?: Problem
    done?: string
  },
): string {
  const w = f.w
  const e = d.errors
  const writable = can(f, 'discounts:write')
  const x = d.form
  return crudEditor(f, {
    ...d,
    base: '/admin/discounts',
    writable,
    words: w.discounts,
    controls: html`
    ${input({
      id: 'code',
      label: w.common.code,
      value: x.code,
      hint: w.discounts.codeHint,
      errors: e,
      attrs: 'required maxlength="40" autocapitalize="characters"',
    })}
    ${select(
      'type',
      'type',
      w.discounts.type,
      [
        { value: 'percentage', label: w.discounts.percentage },
        { value: 'fixed', label: `${w.discounts.fixed} (${d.currency})` },
      ],
      x.type,
      e,
    )}
    ${input({
      id: 'value',
      label: w.discounts.value,
      value: x.value,
      hint: w.discounts.valueHint,
      errors: e,
      attrs: 'required inputmode="decimal"',
    })}
    ${input({
      id: 'minOrderAmount',
      label: `${w.discounts.minOrder} (${d.currency})`,
      value: x.minOrderAmount,
      hint: w.discounts.minOrderHint,
      errors: e,
      attrs: 'inputmode="decimal"',
    })}
    ${input({
      id: 'maxUses',
      label: w.discounts.maxUses,
      value: x.maxUses,
      hint: w.discounts.maxUsesHint,
      errors: e,
      attrs: 'inputmode="numeric"',
    })}
    ${input({
      id: 'expiresAt',
      label: w.discounts.expires,
      value: x.expires,
      type: 'date',
      hint: w.discounts.expiresHint,
      errors: e,
    })}
    ${checkbox('isActive', 'isActive', w.common.active, x.active)}`,
  })
}
