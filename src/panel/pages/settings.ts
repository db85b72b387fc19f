/**
 * Settings (owners change them; viewers read them): name, description, WhatsApp number and
 * template, language, currency, published, maintenance, pending-order expiry, stock counts, and a
 * link to the storefront. "Preview" re-shows the form with the WhatsApp message a customer would
 * send for a sample order, rendered by the checkout's own function in the store's language.
 * "Save" is the API's verb (updateStoreSettings) with the body its schema checks.
 */
import type { Store } from '../../modules/platform-stores'
import { AppError } from '../../lib/errors'
import { whatsappFor } from '../../modules/orders'
import { getStoreSettings, StoreUpdate, updateStoreSettings } from '../../modules/store-settings'
import { checkBody } from '../../plugins/validation-errors'
import { html, raw } from '../../shop/html'
import { can, form, layout, type Frame } from '../views'
import { banner, checkbox, defaultSave, input, notice, select } from './controls'
import { field, numberField, problemsOf, refusalOf, ticked, type PageReq, type PageRoute, type Problem } from './kit'
import { unknownPlaceholders } from '../../lib/whatsapp'
import { ZONE_NAMES } from '../../lib/zone'
import { panelWords, isPanelLanguage } from '../words'
import type { PanelEnv } from '../env'

interface SettingsForm {
  name: string
  description: string
  whatsappNumber: string
  whatsappTemplate: string
  language: string
  currency: string
  isPublished: boolean
  isMaintenance: boolean
  pendingOrderTtlHours: string
  showStockCount: boolean
  timezone: string
}

type Settings = ReturnType<typeof getStoreSettings>

const formOf = (s: Settings): SettingsForm => ({
  name: s.name,
  description: s.description ?? '',
  whatsappNumber: s.whatsappNumber ?? '',
  whatsappTemplate: s.whatsappTemplate ?? '',
  language: s.language,
  currency: s.currency,
  isPublished: s.isPublished,
  isMaintenance: s.isMaintenance,
  pendingOrderTtlHours: String(s.pendingOrderTtlHours),
  showStockCount: s.showStockCount,
  timezone: s.timezone,
})

const readForm = (b: unknown): SettingsForm => ({
  name: field(b, 'name') ?? '',
  description: field(b, 'description') ?? '',
  whatsappNumber: field(b, 'whatsappNumber') ?? '',
  whatsappTemplate: field(b, 'whatsappTemplate') ?? '',
  language: field(b, 'language') ?? '',
  currency: field(b, 'currency') ?? '',
  isPublished: ticked(b, 'isPublished'),
  isMaintenance: ticked(b, 'isMaintenance'),
  pendingOrderTtlHours: field(b, 'pendingOrderTtlHours') ?? '',
  showStockCount: ticked(b, 'showStockCount'),
  timezone: field(b, 'timezone') ?? '',
})

/** The API body this form stands for (empty optional text = null, the API's "none"). */
function bodyOf(f: SettingsForm, b: unknown) {
  return checkBody(StoreUpdate, {
    name: f.name,
    description: f.description.trim() === '' ? null : f.description,
    whatsappNumber: f.whatsappNumber.trim() === '' ? null : f.whatsappNumber,
    whatsappTemplate: f.whatsappTemplate.trim() === '' ? null : f.whatsappTemplate.replace(/\r\n/g, '\n'),
    language: f.language,
    currency: f.currency.trim(),
    isPublished: f.isPublished,
    isMaintenance: f.isMaintenance,
    pendingOrderTtlHours: numberField(b, 'pendingOrderTtlHours') ?? '',
    showStockCount: f.showStockCount,
    // An empty field keeps the store's clock as it is (every store has one; UTC by default).
    ...(f.timezone.trim() === '' ? {} : { timezone: f.timezone.trim() }),
  })
}

/** The message for a sample order, through the checkout's own renderer, in the store's language. */
function preview(store: Store, f: SettingsForm): string {
  const language = isPanelLanguage(f.language) ? f.language : store.language
  const w = panelWords(language)
  const currency = /^[A-Za-z]{3}$/.test(f.currency) ? f.currency.toUpperCase() : store.currency
  const url = whatsappFor(
    {
      ...store,
      name: f.name || store.name,
      language,
      whatsappNumber: '+10000000000',
      whatsappTemplate: f.whatsappTemplate.trim() === '' ? null : f.whatsappTemplate.replace(/\r\n/g, '\n'),
    },
    {
      orderNumber: 'ORD-000042',
      customerName: w.settings.sampleCustomer,
      customerAddress: w.settings.sampleAddress,
      itemsSubtotal: 4500,
      shippingName: w.settings.sampleShipping,
      shippingPrice: 500,
      discountCode: null,
      discountAmount: 0,
      total: 5000,
      currency,
    },
    [
      { quantity: 2, productName: w.settings.sampleLine1, variantName: null, subtotal: 3000 },
      { quantity: 1, productName: w.settings.sampleLine2, variantName: null, subtotal: 1500 },
    ],
  )
  return decodeURIComponent(new URL(url!).searchParams.get('text') ?? '')
}

interface PageData {
  form: SettingsForm
  slug: string
  preview: string
  errors: Record<string, string>
  problem?: Problem
  done?: string
}

function settingsPage(f: Frame, d: PageData): string {
  const w = f.w
  const e = d.errors
  const writable = can(f, 'store:write')
  const v = d.form
  const languages = [
    { value: 'es', label: 'Español' },
    { value: 'en', label: 'English' },
    { value: 'pt', label: 'Português' },
  ]
  // The preview flags placeholders the save would refuse, before any save is tried.
  const unknown = unknownPlaceholders(v.whatsappTemplate)
  const body = html`${writable ? defaultSave(w) : ''}
  <fieldset class="plain"${raw(writable ? '' : ' disabled')}><legend class="sr-only">${w.nav.settings}</legend>
    ${input({ id: 'name', label: w.settings.storeName, value: v.name, errors: e, attrs: 'required maxlength="200"' })}
    ${input({
      id: 'description',
      label: w.common.description,
      value: v.description,
      errors: e,
      multiline: true,
      attrs: 'maxlength="5000"',
    })}
    ${input({
      id: 'whatsappNumber',
      label: w.settings.whatsappNumber,
      value: v.whatsappNumber,
      errors: e,
      type: 'tel',
      attrs: 'autocomplete="tel" maxlength="40"',
    })}
    ${input({
      id: 'whatsappTemplate',
      label: w.settings.whatsappTemplate,
      value: v.whatsappTemplate,
      errors: e,
      multiline: true,
      hint: w.settings.templateHint,
      attrs: 'maxlength="1000"',
    })}
    <h2 id="preview-h">${w.settings.previewTitle}</h2>
    <pre class="preview"${raw(unknown.length ? ' aria-describedby="preview-flags"' : '')}>${d.preview}</pre>
    ${
      unknown.length
        ? html`<p id="preview-flags" class="error">${w.problems.shortcodesUnknown(unknown.join(', '))}</p>`
        : ''
    }
    <button type="submit" name="_action" value="preview" class="secondary">${w.settings.preview}</button>
    ${select('language', 'language', w.settings.storeLanguage, languages, v.language, e)}
    ${input({
      id: 'currency',
      label: w.settings.currency,
      value: v.currency,
      errors: e,
      hint: w.settings.currencyHint,
      attrs: 'maxlength="3" autocapitalize="characters"',
    })}
    ${checkbox('isPublished', 'isPublished', w.settings.published, v.isPublished)}
    ${checkbox('isMaintenance', 'isMaintenance', w.settings.maintenance, v.isMaintenance)}
    ${checkbox('showStockCount', 'showStockCount', w.settings.showStockCount, v.showStockCount)}
    ${input({
      id: 'timezone',
      label: w.settings.timezone,
      value: v.timezone,
      errors: e,
      hint: w.settings.timezoneHint,
      attrs: 'maxlength="64" autocomplete="off" autocapitalize="off" spellcheck="false" list="zones"',
    })}
    <datalist id="zones">${ZONE_NAMES.map((z) => html`<option value="${z}"></option>`)}</datalist>
    ${input({
      id: 'pendingOrderTtlHours',
      label: w.settings.pendingTtl,
      value: v.pendingOrderTtlHours,
      errors: e,
      hint: w.settings.pendingTtlHint,
      attrs: 'inputmode="numeric"',
    })}
  </fieldset>
  ${writable ? html`<p><button type="submit" name="_action" value="save">${w.common.save}</button></p>` : ''}`
  return layout(
    f,
    w.nav.settings,
    html`${notice(d.done)}${banner(w, d.problem, e)}
    <p><a href="/s/${encodeURIComponent(d.slug)}">${w.settings.viewShop}</a></p>
    <section>${form(f, '/admin/settings', body, 'novalidate')}</section>`,
  )
}

export function settingsPages(kit: PanelEnv): PageRoute[] {
  const show = (c: PageReq, status: number, d: Omit<PageData, 'slug' | 'preview'>) => {
    const ctx = c.ctx
    return kit.render(c.p, c.set, status, (f) =>
      settingsPage(f, { ...d, slug: ctx.store.slug, preview: preview(ctx.store, d.form) }),
    )
  }
  return [
    {
      method: 'get',
      path: '/admin/settings',
      need: 'store:read',
      handler: (c) =>
        show(c, 200, {
          form: formOf(getStoreSettings({ ctx: c.ctx })),
          errors: {},
          done: c.query.done === 'saved' ? c.p.w.common.saved : undefined,
        }),
    },
    {
      method: 'post',
      path: '/admin/settings',
      need: 'store:write',
      handler: (c) => {
        const form = readForm(c.body)
        if (field(c.body, '_action') === 'preview') return show(c, 200, { form, errors: {} })
        try {
          updateStoreSettings({ ctx: c.ctx, input: bodyOf(form, c.body) })
        } catch (e) {
          const problems = problemsOf(e, c.p.w)
          if (!problems) throw e
          return show(c, e instanceof AppError ? e.status : 400, { form, ...refusalOf(problems) })
        }
        return kit.seeOther(c.set, '/admin/settings?done=saved')
      },
    },
  ]
}
