/**
 * The editor's pictures: the list in order (thumbnails from /media), each with "Move earlier",
 * "Move later" (plain POST forms) and "Delete" (a confirmation page); the pick-several file input
 * (a multipart POST that works without the script); a live region the script announces moves in.
 * The list is also the fragment the script swaps in after an upload or a move, so it needs only
 * the words, the form token and the images, not the whole frame.
 */
import { html, raw, type Html } from '../../../shop/html'
import type { ImageView } from '../../../modules/products'
import { described } from '../controls'
import { confirmOrBack } from '../../views/frame-base'
import type { Words } from '../../words'

export interface PicturesView {
  w: Words
  token: string
  writable: boolean
  productId: string
  productName: string
  images: ImageView[]
  /** MEDIA_MAX_BYTES in MB, for the hint. */
  maxMb: number
  /** Per-file problems of the last upload, in the person's words. */
  errors?: string[]
  upgradeUrl?: string
  done?: string
}

const UPLOAD_FORM = raw('enctype="multipart/form-data" id="picture-upload" class="dropzone"')
const base = (v: PicturesView) => `/admin/products/${encodeURIComponent(v.productId)}/pictures`
const token = (v: PicturesView) => html`<input type="hidden" name="_csrf" value="${v.token}">`

/** A move form: one button that posts the picture's new position (the API's PUT body). */
function moveForm(v: PicturesView, img: ImageView, to: number, text: string, label: string): Html {
  const position = html`<input type="hidden" name="position" value="${to}">`
  const button = html`<button type="submit" class="secondary" aria-label="${label}">${text}</button>`
  const action = `${base(v)}/${encodeURIComponent(img.id)}/move`
  return html`<form method="post" action="${action}" data-move>${token(v)}${position}${button}</form>`
}

export function pictureItems(v: PicturesView): Html {
  const { w } = v
  const n = v.images.length
  return html`${v.images.map((img, i) => {
    const thumb = img.sizes[0] ?? { url: img.url, width: img.width }
    const height = Math.max(1, Math.round((img.height * thumb.width) / img.width))
    const draggable = raw(v.writable ? ' draggable="true"' : '')
    return html`<li id="picture-${img.id}" class="picture" data-id="${img.id}" data-position="${i}"${draggable}>
      <img src="${thumb.url}" width="${thumb.width}" height="${height}" alt="${w.products.pictureAlt(
        i + 1,
        v.productName,
      )}" decoding="async">
      <div><p class="picture-label">${w.products.picture(i + 1, n)}</p>
      ${
        v.writable
          ? html`<div class="actions">${
              i > 0 ? moveForm(v, img, i - 1, w.products.moveEarlier, w.products.moveEarlierLabel(i + 1)) : ''
            }${
              i < n - 1 ? moveForm(v, img, i + 1, w.products.moveLater, w.products.moveLaterLabel(i + 1)) : ''
            }<a class="button secondary" href="${base(v)}/${encodeURIComponent(img.id)}/delete"
              aria-label="${w.products.deletePictureLabel(i + 1)}">${w.common.delete}</a></div>`
          : ''
      }</div>
    </li>`
  })}`
}

export function picturesSection(v: PicturesView): Html {
  const { w } = v
  const errors = v.errors ?? []
  const upload = v.writable
    ? html`<form method="post" action="${base(v)}" ${UPLOAD_FORM}>${token(v)}
      <label for="file">${w.products.addPictures}</label>
      <input id="file" name="file" type="file" multiple accept="image/jpeg,image/png,image/webp"${described(
        'file',
        w.products.picturesHint(v.maxMb),
        errors.join(' ') || undefined,
      )}>
      <p id="file-hint" class="hint">${w.products.picturesHint(v.maxMb)} <span id="drop-hint"
        hidden>${w.products.dropHere}</span></p>
      ${errors.length ? html`<ul id="file-error" class="error">${errors.map((e) => html`<li>${e}</li>`)}</ul>` : ''}
      ${v.upgradeUrl ? html`<p><a class="button" href="${v.upgradeUrl}">${w.problems.upgradePlan}</a></p>` : ''}
      <p data-upload-button><button type="submit" class="secondary">${w.products.upload}</button></p>
    </form>
    <ul id="upload-progress" class="list uploads" hidden data-uploading="${w.products.uploading('{name}')}"
      data-uploaded="${w.products.uploaded}" data-failed="${w.products.uploadFailed}"></ul>`
    : ''
  return html`<section id="pictures" aria-labelledby="pictures-title">
    <h2 id="pictures-title">${w.products.pictures}</h2>
    ${v.done ? html`<p class="notice" role="status">${v.done}</p>` : ''}
    ${
      v.images.length
        ? v.writable
          ? html`<p class="hint" id="drag-hint" hidden>${w.products.dragHint}</p>`
          : ''
        : html`<p id="no-pictures">${w.products.noPictures}</p>`
    }
    <ol id="picture-list" class="pictures" data-base="${base(v)}">${pictureItems(v)}</ol>
    <p id="pictures-status" class="sr-only" role="status" aria-live="polite"></p>
    ${upload}
  </section>`
}

/** "Delete picture 2?", with its thumbnail. */
export function pictureDeleteBody(v: PicturesView, img: ImageView, n: number): Html {
  const { w } = v
  const thumb = img.sizes[0] ?? { url: img.url, width: img.width }
  const back = `/admin/products/${encodeURIComponent(v.productId)}#pictures`
  return html`<section><p><img class="picture-big" src="${thumb.url}" width="${thumb.width}" height="${Math.max(
    1,
    Math.round((img.height * thumb.width) / img.width),
  )}" alt="${w.products.pictureAlt(n, v.productName)}"></p>
    <p>${w.products.deletePictureText}</p>
    <form method="post" action="${base(v)}/${encodeURIComponent(img.id)}/delete">${token(v)}
    ${confirmOrBack(w.common.delete, back, w.common.cancel)}</form>
  </section>`
}
