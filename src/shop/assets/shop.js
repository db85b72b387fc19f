// The shop's one script: the cart (kept in this browser, per store) and the checkout, written
// against the public API. Without it the pages still read; with it a customer can order.
// The page gives the words and the catalog in its #shop-data block, so this file has no words.
;(() => {
  var m = location.pathname.match(/^\/s\/([^/]+)/)
  if (!m) return
  var CART = `cart:${m[1]}`
  var ATTEMPT = `checkout:${m[1]}`
  var $ = (sel, el) => (el || document).querySelector(sel)
  // The page says ordering needs JavaScript; it is here.
  Array.prototype.forEach.call(document.querySelectorAll('[data-needs-js]'), (e) => {
    e.hidden = true
  })

  function read(store, key) {
    try {
      return JSON.parse(store.getItem(key))
    } catch (_e) {
      return null
    }
  }
  function write(store, key, value) {
    try {
      value === null ? store.removeItem(key) : store.setItem(key, JSON.stringify(value))
    } catch (_e) {
      /* storage off: the cart lives for this page only */
    }
  }
  var lines = read(localStorage, CART)
  if (!Array.isArray(lines)) lines = []
  function save() {
    write(localStorage, CART, lines.length ? lines : null)
    showCount()
  }
  function showCount() {
    var n = 0
    for (var i = 0; i < lines.length; i++) n += lines[i].q
    var el = $('[data-cart-count]')
    if (el) el.textContent = n ? String(n) : ''
  }
  showCount()
  // Another tab changed the cart.
  addEventListener('storage', (e) => {
    if (e.key !== CART) return
    lines = read(localStorage, CART) || []
    showCount()
    if (cart) renderCart()
  })

  // ---- Product page: add to cart ----
  var add = $('[data-add]')
  if (add) {
    add.addEventListener('submit', (e) => {
      e.preventDefault()
      var status = $('[data-add-status]', add)
      var variant = null
      if (add.elements.variant) {
        var picked = $('input[name=variant]:checked', add)
        if (!picked) {
          status.textContent = add.getAttribute('data-choose')
          return
        }
        variant = picked.value
      }
      var q = Math.max(1, Math.min(999, parseInt(add.elements.qty.value, 10) || 1))
      var p = add.getAttribute('data-product')
      var found = false
      for (var i = 0; i < lines.length; i++) {
        if (lines[i].p === p && lines[i].v === variant) {
          lines[i].q = Math.min(999, lines[i].q + q)
          found = true
        }
      }
      if (!found) lines.push({ p: p, v: variant, q: q })
      save()
      status.textContent = ''
      // Set on the next frame so screen readers announce a repeated message too.
      requestAnimationFrame(() => {
        status.textContent = add.getAttribute('data-added')
      })
    })
  }

  var dataEl = $('#shop-data')
  var data = dataEl ? JSON.parse(dataEl.textContent) : null

  // ---- Product page: write a review ----
  // Posts JSON to the public POST /api/reviews. Without this script the same form posts its
  // fields to the page's own route, which calls the same verb and redirects back.
  var review = $('[data-review]')
  if (review && data?.review) writeReview(review, data.review)

  function writeReview(form, R) {
    form.noValidate = true // our messages, in the store's language, instead of the browser's
    var f = form.elements
    var ok = $('[data-review-ok]', form)
    var err = $('[data-review-err]', form)
    var count = $('[data-count]', form)
    var live = $('[data-count-live]', form)
    var button = $('button[type=submit]', form)
    var busy = false
    var timer
    // The count as the person types; read out to a screen reader once they pause, not at every key.
    function counted() {
      var text = count
        .getAttribute('data-count')
        .replace('{n}', f.comment.value.length.toLocaleString(document.documentElement.lang))
      count.textContent = text
      clearTimeout(timer)
      timer = setTimeout(() => {
        live.textContent = text
      }, 1000)
    }
    f.comment.addEventListener('input', counted)

    function say(el, text) {
      el.textContent = ''
      // Set on the next frame so a repeated message is announced again.
      requestAnimationFrame(() => {
        el.textContent = text
      })
    }
    function clear() {
      Array.prototype.forEach.call(form.querySelectorAll('.err'), (e) => {
        e.textContent = ''
      })
      Array.prototype.forEach.call(form.querySelectorAll('[aria-invalid]'), (e) => {
        e.removeAttribute('aria-invalid')
      })
      ok.textContent = ''
      err.textContent = ''
    }
    function message(field, reason) {
      var m = R.errors[field] || {}
      return m[reason] || m['*'] || R.failed
    }
    /** The message next to the field the API named; false when the form has no such field. */
    function fieldError(field, reason) {
      var target = $(`[data-err="${field}"]`, form)
      if (!target) return false
      target.textContent = message(field, reason)
      var input = field === 'rating' ? $('input[name=rating]', form) : f[field]
      input.setAttribute('aria-invalid', 'true')
      input.focus()
      return true
    }
    // As the page rounds it for a post without script (src/shop/i18n/format.ts retryText).
    function retryText(seconds) {
      var minutes = Math.max(1, Math.round(seconds / 60))
      if (minutes >= 90) return R.limitHours.replace('{n}', String(Math.round(minutes / 60)))
      if (minutes >= 45) return R.limitHour
      return minutes === 1 ? R.limitMinute : R.limitMinutes.replace('{n}', String(minutes))
    }

    form.addEventListener('submit', (e) => {
      e.preventDefault()
      if (busy) return
      clear()
      var name = f.customerName.value.trim()
      var picked = $('input[name=rating]:checked', form)
      var text = f.comment.value.trim()
      // The page checks what it can; the API checks again and names the field it refuses.
      if (!name) return void fieldError('customerName', 'required')
      if (!picked) return void fieldError('rating', 'required')
      var body = {
        storeId: form.getAttribute('data-store'),
        productId: form.getAttribute('data-product'),
        customerName: name,
        rating: parseInt(picked.value, 10),
      }
      if (text) body.comment = text
      busy = true
      var label = button.textContent
      button.disabled = true
      button.textContent = R.sending
      form.setAttribute('aria-busy', 'true')
      fetch('/api/reviews', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
        .then((res) =>
          res
            .json()
            .catch(() => ({}))
            .then((json) => ({ status: res.status, json: json, retry: res.headers.get('retry-after') })),
        )
        .then(
          (r) => {
            if (r.status === 201) {
              form.reset()
              count.textContent = count.getAttribute('data-count').replace('{n}', '0')
              return say(ok, R.thanks)
            }
            var d = r.json?.details || {}
            if (r.status === 400 && d.field && fieldError(d.field, d.reason)) return
            if (r.status === 400 && d.field) return say(err, message(d.field, d.reason))
            say(err, r.status === 429 ? retryText(parseInt(r.retry, 10) || 86400) : R.failed)
          },
          () => {
            say(err, R.network)
          },
        )
        .then(() => {
          busy = false
          button.disabled = false
          button.textContent = label
          form.removeAttribute('aria-busy')
        })
    })
  }

  // ---- The customer's order page: the shop's moves show while it is open ----
  // The page itself is asked again every few seconds (while the tab is visible, and at once when
  // it comes back); when its live part's version changed, that part is swapped for the new one.
  var liveOrder = $('[data-order-live]')
  if (liveOrder) {
    var refresh = $('[data-refresh]')
    if (refresh) refresh.hidden = true
    var asking = false
    var ask = () => {
      if (asking || document.visibilityState === 'hidden') return
      asking = true
      fetch(location.pathname, { headers: { accept: 'text/html' }, cache: 'no-store', credentials: 'same-origin' })
        .then((res) => (res.ok ? res.text() : null))
        .then((text) => {
          if (!text) return
          var next = new DOMParser().parseFromString(text, 'text/html').querySelector('[data-order-live]')
          var now = $('[data-order-live]')
          if (next && now && next.getAttribute('data-order-live') !== now.getAttribute('data-order-live'))
            now.replaceWith(document.importNode(next, true))
        })
        .catch(() => {
          /* offline for a moment: the next turn asks again */
        })
        .then(() => {
          asking = false
        })
    }
    setInterval(ask, 3000)
    document.addEventListener('visibilitychange', ask)
    return
  }

  // ---- Cart page ----
  var cart = $('[data-cart]')
  if (!cart || !data) return
  var W = data.words
  var digits = new Intl.NumberFormat('en', { style: 'currency', currency: data.currency }).resolvedOptions()
    .maximumFractionDigits
  var scale = 10 ** digits
  var fmt = new Intl.NumberFormat(data.locale, { style: 'currency', currency: data.currency })
  // Money in minor units here too, so sums never pick up float error.
  var minor = (major) => Math.round(major * scale)
  var show = (m) => fmt.format(m / scale)
  var form = $('[data-checkout]')
  var list = $('[data-lines]')
  var busy = false

  function item(line) {
    var p = data.products[line.p]
    if (!p) return null
    if (line.v) {
      var v = p.variants[line.v]
      return v ? { name: `${p.name} (${v.name})`, price: v.price, inStock: p.inStock && v.inStock } : null
    }
    return Object.keys(p.variants).length ? null : { name: p.name, price: p.price, inStock: p.inStock }
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag)
    for (var k in attrs) e.setAttribute(k, attrs[k])
    if (text !== undefined) e.textContent = text
    return e
  }

  function renderCart() {
    // Lines whose product or option left the catalog are dropped: they could not be ordered.
    lines = lines.filter(item)
    save()
    list.textContent = ''
    lines.forEach((line, i) => {
      var it = item(line)
      var li = el('li', { class: 'line' })
      var info = el('div')
      info.appendChild(el('div', { class: 'name' }, it.name))
      info.appendChild(el('div', { class: 'muted' }, show(minor(it.price))))
      li.appendChild(info)
      li.appendChild(el('div', { class: 'sum', 'data-sum': i }, show(minor(it.price) * line.q)))
      var ctl = el('div', { class: 'ctl' })
      var id = `q-${i}`
      ctl.appendChild(el('label', { for: id, class: 'vh' }, W.quantityOf.replace('{name}', it.name)))
      var input = el('input', {
        id: id,
        type: 'number',
        inputmode: 'numeric',
        min: '1',
        max: '999',
        value: String(line.q),
        'aria-describedby': `items-${i}-err`,
      })
      input.addEventListener('input', () => {
        var q = parseInt(input.value, 10)
        if (!(q >= 1 && q <= 999)) return
        line.q = q
        save()
        $(`[data-sum="${i}"]`).textContent = show(minor(it.price) * q)
        totals()
      })
      ctl.appendChild(input)
      var rm = el('button', { type: 'button', class: 'link', 'aria-label': `${W.remove}: ${it.name}` }, W.remove)
      rm.addEventListener('click', () => {
        lines.splice(i, 1)
        renderCart()
        var next = $('[data-lines] input') || $('h1')
        next.setAttribute('tabindex', '-1')
        next.focus()
      })
      ctl.appendChild(rm)
      li.appendChild(ctl)
      li.appendChild(el('span', { class: 'err', id: `items-${i}-err` }, it.inStock ? '' : W.outOfStock))
      list.appendChild(li)
    })
    $('[data-empty]').hidden = lines.length > 0
    form.hidden = lines.length === 0
    totals()
  }

  function totals() {
    var sub = 0
    lines.forEach((line) => {
      sub += minor(item(line).price) * line.q
    })
    var picked = $('input[name=shippingOptionId]:checked', form)
    var ship = picked ? minor(data.shipping[picked.value]) : 0
    $('[data-subtotal]').textContent = show(sub)
    var s = $('[data-shipping]')
    if (s) s.textContent = show(ship)
    $('[data-total]').textContent = show(sub + ship)
  }

  // ---- Checkout ----
  function clearErrors() {
    Array.prototype.forEach.call(cart.querySelectorAll('.err'), (e) => {
      e.textContent = ''
    })
    Array.prototype.forEach.call(form.querySelectorAll('[aria-invalid]'), (e) => {
      e.removeAttribute('aria-invalid')
    })
    $('[data-form-err]').textContent = ''
  }

  /** Shows a message next to the field the API named (`details.field`); false if there is no such place. */
  function fieldError(field, message) {
    var im = /^items\[(\d+)\]/.exec(field)
    var target = im ? $(`#items-${im[1]}-err`) : $(`[data-err="${field}"]`, form)
    if (!target) return false
    target.textContent = message
    var input = im ? $(`#q-${im[1]}`) : form.elements[field]
    if (input?.setAttribute) {
      input.setAttribute('aria-invalid', 'true')
      input.focus()
    } else if (input?.[0]) input[0].focus()
    return true
  }

  function reasonText(field, reason) {
    if (field === 'phone' && reason !== 'required') return W.invalidPhone
    if (field === 'discountCode' && reason === 'not_found') return W.unknownCode
    var map = {
      required: W.required,
      out_of_range: W.tooLong,
      not_found: W.notFound,
      inactive: W.inactive,
      expired: W.expired,
      exhausted: W.exhausted,
      below_minimum: W.belowMinimum,
    }
    return map[reason] || W.invalid
  }

  function formError(message) {
    var e = $('[data-form-err]')
    e.textContent = message
  }

  function newKey() {
    var b = new Uint8Array(16)
    crypto.getRandomValues(b)
    return Array.prototype.map.call(b, (x) => (x + 256).toString(16).slice(1)).join('')
  }

  form.addEventListener('change', (e) => {
    if (e.target.name === 'shippingOptionId') totals()
  })

  form.addEventListener('submit', (e) => {
    e.preventDefault()
    if (busy) return
    clearErrors()
    var f = form.elements
    var val = (name) => (f[name] ? f[name].value.trim() : '')
    // The page checks what it can (the API checks again and names the field it refuses).
    var bad = null
    if (!val('name')) bad = bad || (fieldError('name', W.required) && 'name')
    if (!val('phone')) bad = bad || (fieldError('phone', W.required) && 'phone')
    if (bad) {
      f[bad].focus()
      return
    }
    var body = {
      storeId: data.storeId,
      name: val('name'),
      phone: val('phone'),
      items: lines.map((l) => (l.v ? { variantId: l.v, quantity: l.q } : { productId: l.p, quantity: l.q })),
    }
    if (val('address')) body.address = val('address')
    if (val('notes')) body.notes = val('notes')
    if (val('discountCode')) body.discountCode = val('discountCode')
    var ship = $('input[name=shippingOptionId]:checked', form)
    if (ship) body.shippingOptionId = ship.value
    var text = JSON.stringify(body)
    // One Idempotency-Key per checkout attempt: a double click, a retry after a network error
    // or a reload during submit sends the same key with the same body, so the API answers with
    // the first order instead of making a second. A changed order is a new attempt.
    var attempt = read(sessionStorage, ATTEMPT)
    if (!attempt || attempt.body !== text) {
      attempt = { key: newKey(), body: text }
      write(sessionStorage, ATTEMPT, attempt)
    }
    busy = true
    var button = $('[data-submit]')
    var label = button.textContent
    button.disabled = true
    button.textContent = W.placing
    form.setAttribute('aria-busy', 'true')
    fetch('/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': attempt.key },
      body: text,
    })
      .then((res) =>
        res
          .json()
          .catch(() => ({}))
          .then((json) => ({ status: res.status, json: json })),
      )
      .then(
        (r) => {
          if (r.status === 201) return done(r.json)
          var j = r.json || {}
          var d = j.details || {}
          if (r.status === 400 && d.field && fieldError(d.field, reasonText(d.field, d.reason))) return
          if (r.status === 409 && j.code === 'DUPLICATE_ORDER') return formError(W.duplicate)
          if (r.status === 409 && j.code === 'OUT_OF_STOCK') {
            var msg =
              d.available === 0
                ? W.soldOutNow
                : W.outOfStock + (d.available !== undefined ? ` ${W.available.replace('{n}', d.available)}` : '')
            if (!d.field || !fieldError(d.field, msg)) formError(msg)
            return
          }
          if (r.status === 409 && j.code === 'IDEMPOTENCY_KEY_REUSED') write(sessionStorage, ATTEMPT, null)
          formError(r.status === 429 ? W.tooMany : W.failed)
        },
        () => {
          formError(W.network)
        },
      )
      .then(() => {
        busy = false
        button.disabled = false
        button.textContent = label
        form.removeAttribute('aria-busy')
      })
  })

  function done(order) {
    lines = []
    save()
    write(sessionStorage, ATTEMPT, null)
    cart.hidden = true
    // The page is the order's confirmation now, not the cart: its heading says so.
    var heading = $('[data-cart-title]')
    var placed = $('#done-h')
    if (heading && placed) {
      heading.textContent = placed.textContent
      placed.remove()
      document.title = document.title.replace(heading.getAttribute('data-cart-title'), heading.textContent)
    }
    var box = $('[data-done]')
    $('[data-order-number]').textContent = order.orderNumber
    $('[data-order-total]').textContent =
      typeof order.total === 'number'
        ? new Intl.NumberFormat(data.locale, { style: 'currency', currency: order.currency || data.currency }).format(
            order.total,
          )
        : ''
    var wa = $('[data-wa]')
    if (typeof order.whatsappUrl === 'string' && order.whatsappUrl.indexOf('https://wa.me/') === 0) {
      wa.href = order.whatsappUrl
      wa.hidden = false
    }
    var follow = $('[data-status]')
    if (follow && typeof order.statusUrl === 'string' && order.statusUrl.indexOf(`${location.origin}/s/`) === 0) {
      follow.href = order.statusUrl
      follow.hidden = false
    }
    box.hidden = false
    box.focus()
  }

  cart.hidden = false
  renderCart()
})()
