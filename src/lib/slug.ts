/** Contract: a slug is 3–50 characters of a-z, 0-9 and inner hyphens. */
export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{1,48})[a-z0-9]$'
const SLUG_RE = new RegExp(SLUG_PATTERN)

export function isSlug(s: string): boolean {
  return SLUG_RE.test(s) && !s.includes('--')
}

/** URL-friendly form of a name: accents folded, runs of other characters become one hyphen. */
export function slugify(name: string): string {
  let s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/g, '')
  if (s.length < 3) s = (s ? `${s}-` : 'item-') + Math.random().toString(36).slice(2, 8)
  return s
}
