/**
 * One Lighthouse run (Node runs its CLI; it starts and stops its
 * own Chromium): mobile, the four categories, the report as JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './root'
import { tempDir } from './processes'

/** The parts of Lighthouse's report the benches read. */
export interface Lhr {
  categories: Record<string, { score: number | null; auditRefs?: { id: string; weight: number }[] }>
  audits: Record<
    string,
    { score?: number | null; title?: string; details?: { items?: { resourceType?: string; transferSize?: number }[] } }
  >
}

/** Lighthouse's target in each category. */
export const TARGET_LIGHTHOUSE = 95

export const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium'

/** `headers`: sent with every request of the page (Lighthouse's `extraHeaders`), e.g. a session cookie. */
export async function runLighthouse<T>(url: string, headers?: Record<string, string>): Promise<T> {
  const dir = tempDir('sf-lh-')
  const out = path.join(dir, 'report.json')
  const extra: string[] = []
  if (headers) {
    writeFileSync(path.join(dir, 'headers.json'), JSON.stringify(headers))
    extra.push(`--extra-headers=${path.join(dir, 'headers.json')}`)
  }
  const proc = Bun.spawn(
    [
      'node',
      path.join(ROOT, 'node_modules/lighthouse/cli/index.js'),
      url,
      '--output=json',
      `--output-path=${out}`,
      '--quiet',
      ...extra,
      '--only-categories=performance,accessibility,best-practices,seo',
      // The server's self-signed certificate; the page is still served over TLS.
      '--chrome-flags=--headless=new --no-sandbox --ignore-certificate-errors',
    ],
    { cwd: ROOT, env: { ...process.env, CHROME_PATH: CHROME }, stdout: 'ignore', stderr: 'pipe' },
  )
  const timer = setTimeout(() => proc.kill(), 120_000)
  const code = await proc.exited
  clearTimeout(timer)
  if (code !== 0)
    throw new Error(`lighthouse failed (${code}): ${(await new Response(proc.stderr).text()).slice(-2000)}`)
  return JSON.parse(readFileSync(out, 'utf8')) as T
}
