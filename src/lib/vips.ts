/**
 * sharp (libvips), loaded at its first use — an upload, a panel icon — not at start: loading it
 * adds ~21 MB of RSS that a server making no pictures never needs (bench/memory.ts). Its
 * operation cache is off: by default it keeps up to 50 MB of recent operations' results, and
 * neither an upload (resized once) nor an icon (kept as PNG bytes) is made twice.
 */
export type Sharp = typeof import('sharp')['default']

let loading: Promise<Sharp> | undefined
export function vips(): Promise<Sharp> {
  loading ??= import('sharp').then((m) => {
    m.default.cache(false)
    return m.default
  })
  return loading
}
