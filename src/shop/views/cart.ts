/** The cart and checkout page. */
import { type Html, html, raw } from '../html'
import type { PageCtx, ViewCatalog } from './types'
import { layout, money, storePath, summary } from './parts'
import { orderStatusWords } from '../i18n/order-status'

/** The cart and checkout: a shell the script fills from the browser's cart and the data block. */
export function cartPage(cat: ViewCatalog, c: PageCtx): Html {
  const { store } = cat
  const { words } = c
  const field = (id: string, label: string, input: Html, hint?: string) => {
    const hintPart = hint ? html`<span class="hint" id="${id}-hint">${hint}</span>` : ''
    const err = html`<span class="err" id="${id}-err" data-err="${id}"></span>`
    return html`<p class="field"><label for="${id}">${label}</label>${hintPart}${input}${err}</p>`
  }
  const ships = cat.shippingOptions
  const shipOption = (s: ViewCatalog['shippingOptions'][number], i: number) => {
    const radio = html`<input type="radio" name="shippingOptionId" value="${s.id}"${i === 0 ? raw(' checked') : ''}>`
    const price = html`<span class="p">${money(c, s.price, store.currency)}</span>`
    const days = s.estimatedDays !== null ? html` <span class="muted">(${words.days(s.estimatedDays)})</span>` : ''
    return html`<label class="opt">${radio} <span>${s.name}</span> ${price}${days}</label>`
  }
  const inputs = {
    name: raw('<input id="name" name="name" autocomplete="name" required maxlength="200" aria-describedby="name-err">'),
    phone: raw(
      '<input id="phone" name="phone" type="tel" autocomplete="tel" required maxlength="40" ' +
        'aria-describedby="phone-hint phone-err">',
    ),
    address: raw(
      '<textarea id="address" name="address" autocomplete="street-address" rows="2" maxlength="1000" ' +
        'aria-describedby="address-err"></textarea>',
    ),
    notes: raw('<textarea id="notes" name="notes" rows="2" maxlength="2000" aria-describedby="notes-err"></textarea>'),
    discountCode: raw(
      '<input id="discountCode" name="discountCode" autocomplete="off" maxlength="64" ' +
        'aria-describedby="discountCode-err">',
    ),
  }
  const subtotal = html`<dt>${words.subtotal}</dt><dd data-subtotal></dd>`
  const shippingTotal = ships.length ? html`<dt>${words.shipping}</dt><dd data-shipping></dd>` : ''
  const main = html`<h1 id="cart-h" data-cart-title="${words.cartTitle}">${words.cartTitle}</h1>
<p class="note" data-needs-js>${words.needsJs}</p>
<div class="cart" data-cart hidden>
<p data-empty hidden>${words.client.empty} <a href="${storePath(store)}">${words.client.continueShopping}</a></p>
<ul class="lines" data-lines></ul>
<form class="checkout" data-checkout novalidate>
<h2>${words.checkout}</h2>
${
  ships.length
    ? html`<fieldset class="ships"><legend>${words.shipping}</legend>
${ships.map(shipOption)}
<span class="err" id="shippingOptionId-err" data-err="shippingOptionId"></span>
</fieldset>`
    : ''
}
${field('name', words.name, inputs.name)}
${field('phone', words.phone, inputs.phone, words.phoneHint)}
${field('address', words.address, inputs.address)}
${field('notes', words.notes, inputs.notes)}
${field('discountCode', words.discountCode, inputs.discountCode)}
<dl class="totals">${subtotal}${shippingTotal}<dt>${words.total}</dt><dd data-total></dd></dl>
<p class="muted small">${words.totalNote}</p>
<p class="form-err" role="alert" data-form-err></p>
<button type="submit" data-submit>${words.placeOrder}</button>
</form>
</div>
<section class="done" data-done hidden tabindex="-1" aria-labelledby="cart-h">
<h2 id="done-h">${words.client.placed}</h2>
<p>${words.client.orderNumber}: <strong data-order-number></strong></p>
<p>${words.total}: <strong data-order-total></strong></p>
<p><a class="wa big" data-wa hidden rel="noopener">${words.client.whatsapp}</a></p>
<p><a data-status hidden>${orderStatusWords(c.language).follow}</a></p>
<p><a href="${storePath(store)}">${words.client.continueShopping}</a></p>
</section>`
  const data = {
    storeId: store.id,
    currency: store.currency,
    locale: words.locale,
    words: words.client,
    shipping: Object.fromEntries(ships.map((s) => [s.id, s.price])),
    products: Object.fromEntries(
      cat.products.map((p) => [
        p.id,
        {
          name: p.name,
          price: p.price,
          inStock: p.inStock !== false,
          variants: Object.fromEntries(
            p.variants.map((v) => [v.id, { name: v.name, price: v.price, inStock: v.inStock !== false }]),
          ),
        },
      ]),
    ),
  }
  return layout(c, {
    title: `${words.cartTitle} · ${store.name}`,
    description: summary(store.description, store.name),
    path: `${storePath(store)}/cart`,
    store,
    noindex: true,
    script: true,
    data,
    main,
  })
}
