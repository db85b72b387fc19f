/**
 * Contract: a slug is 3–50 characters of a-z, 0-9 and inner hyphens. "Inner" is read as
 * single hyphens between runs of letters and digits (`a--b` is refused), the same rule as
 * `isSlug`, so the request schema and the service never disagree. Length is bounded by the
 * schema's minLength/maxLength and by `isSlug`.
 */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$'
const SLUG_RE = new RegExp(SLUG_PATTERN)
/** The rule as a 400 states it, wherever a slug is refused. */
export const SLUG_RULE = 'A slug is 3–50 characters of a-z, 0-9 and inner hyphens'

export function isSlug(s: string): boolean {
  return s.length >= 3 && s.length <= 50 && SLUG_RE.test(s)
}

/** Letters NFKD does not decompose into a base letter plus accents. */
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' }

/**
 * URL-friendly form of a name: accents folded, runs of other characters become one hyphen.
 * A name with fewer than 3 usable characters (e.g. "TV", or a non-Latin script) gets a short
 * random suffix so the result is still a valid slug.
 */
export function slugify(name: string): string {
  let s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (c) => FOLD[c]!)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/g, '')
  if (s.length < 3) s = (s ? `${s}-` : 'item-') + Math.random().toString(36).slice(2, 8).padEnd(6, '0')
  return s
}
