/**
 * The /docs page: the reference UI, its script served by the service itself from the vendored
 * copy of the pinned `@scalar/api-reference` bundle (scripts/vendor-docs-ui.ts), so the page
 * works with no network beyond the service. No inline script: the configuration travels in a
 * data attribute, and the page's CSP admits scripts from the service's own origin only.
 */
import meta from './vendor/scalar-api-reference.json'

const gzipped = Bun.file(new URL('./vendor/scalar-api-reference.js.gz', import.meta.url))
let bundle: { gz: Uint8Array<ArrayBuffer>; plain?: Uint8Array<ArrayBuffer> } | undefined

async function load() {
  return (bundle ??= { gz: new Uint8Array(await gzipped.arrayBuffer()) })
}

/** Content-addressed: a new bundle gets a new URL, so the old one can be cached forever. */
export const SCRIPT_NAME = `scalar-api-reference-${meta.version}.${meta.sha256.slice(0, 12)}.js`
export const UI_VERSION = meta.version

// Styles stay 'unsafe-inline': the UI injects its own style elements at run time. Nothing in
// this policy names another origin.
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function docsPage(o: { title: string; description?: string; specUrl: string; scriptUrl: string }): Response {
  const configuration = {
    url: o.specUrl,
    withDefaultFonts: false, // fonts from a font CDN otherwise
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showOperationId: true,
    // Both send the reader to the vendor's hosted tools (the document's URL included).
    hideClientButton: true,
    showDeveloperTools: 'never',
    persistAuth: false,
    authentication: { preferredSecurityScheme: 'bearerAuth' },
  }
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(o.title)}</title>
<meta name="description" content="${escapeHtml(o.description ?? o.title)}">
</head>
<body>
<script id="api-reference" data-url="${escapeHtml(o.specUrl)}"
  data-configuration="${escapeHtml(JSON.stringify(configuration))}"></script>
<script src="${escapeHtml(o.scriptUrl)}"></script>
</body>
</html>
`
  return new Response(html, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': DOCS_CSP,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    },
  })
}

export async function docsScript(acceptEncoding: string | null): Promise<Response> {
  const b = await load()
  const headers: Record<string, string> = {
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    vary: 'accept-encoding',
  }
  if (acceptEncoding && /\bgzip\b/.test(acceptEncoding)) {
    return new Response(b.gz, { headers: { ...headers, 'content-encoding': 'gzip' } })
  }
  b.plain ??= new Uint8Array(Bun.gunzipSync(b.gz))
  return new Response(b.plain, { headers })
}
