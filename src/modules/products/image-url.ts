/**
 * A product's `imageUrl` beyond its schema (http(s), at most 2,048 characters): its path must not
 * start with `//` or `/\`. Resolved as a browser does (the WHATWG URL parser, which reads `\` as
 * `/` and drops tabs and line breaks), such a path on our own origin turns into a
 * scheme-relative URL the moment anything writes the path alone — `//evil.example/x.png` — and
 * leaves the origin. Nothing legitimate needs one, so it is refused at the field.
 */
import { ValidationError } from '../../lib/errors'

export function checkImageUrl(url: string | null | undefined): void {
  if (!url) return
  let path: string
  try {
    path = new URL(url).pathname
  } catch {
    throw new ValidationError('imageUrl', 'invalid_format', 'imageUrl must be an http(s) URL')
  }
  if (path.startsWith('//'))
    throw new ValidationError('imageUrl', 'invalid_format', "imageUrl's path must not start with // or /\\")
}
