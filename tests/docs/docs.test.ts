/**
 * The README and docs/ (issue "A README a newcomer reads in five minutes"): the README stays
 * short and keeps the quick-start commands; nothing links outside the repository (a clone has no
 * `../shared`, and no web links in the docs); every relative link and #anchor resolves.
 */
import { expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from '../helpers/server'

/** Docs the README lists that other branches add (they merge after this one). */
const PENDING = new Set([
  'docs/webhooks.md',
  'docs/storefront.md',
  'docs/inventory-and-images.md',
  'docs/hardening.md',
  'docs/architecture.md',
])

const files = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]
const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8')
/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-')
function anchors(f: string): Set<string> {
  const out = new Set<string>()
  let code = false
  for (const line of read(f).split('\n')) {
    if (line.startsWith('```')) code = !code
    else if (!code && line.startsWith('#')) out.add(slug(line.replace(/^#+/, '')))
  }
  return out
}
function links(f: string): string[] {
  const text = read(f).replace(/```[\s\S]*?```/g, '')
  return [...text.matchAll(/(?<!!)\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!)
}

test('the README is short and keeps the quick-start commands', () => {
  const readme = read('README.md')
  expect(readme.length).toBeLessThan(25_000)
  for (const cmd of ['npm install -g bun', 'bun install', 'bun run demo', 'bun run start', 'bun test'])
    expect(readme).toContain(cmd)
  for (const heading of [
    '## Quick start',
    '## Configuration',
    '## Admin CLI',
    '## API at a glance',
    '## Documentation',
  ])
    expect(readme).toContain(heading)
})

test('no link leaves the repository; every relative link and anchor resolves', () => {
  const problems: string[] = []
  for (const f of files) {
    for (const target of links(f)) {
      if (/^[a-z]+:/i.test(target)) {
        problems.push(`${f}: external link ${target}`)
        continue
      }
      const [p = '', anchor] = target.split('#')
      const resolved = p ? path.normalize(path.join(path.dirname(f), p)) : f
      if (resolved.startsWith('..')) problems.push(`${f}: ${target} is outside the repository`)
      else if (!existsSync(path.join(ROOT, resolved))) {
        if (!PENDING.has(resolved)) problems.push(`${f}: ${target} does not exist`)
      } else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
        problems.push(`${f}: no heading for #${anchor} in ${resolved}`)
    }
  }
  expect(problems).toEqual([])
})

test('every doc is listed in the README', () => {
  const readme = read('README.md')
  for (const f of files.slice(1)) expect(readme).toContain(`(${f})`)
})
