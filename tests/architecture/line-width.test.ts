/**
 * No line wider than the formatter's width (biome.json's `lineWidth`) in our code under src/,
 * tests/, bench/ and e2e/. Biome breaks code but leaves a long string, template or comment as it
 * is, so this check holds those: break them where the result stays the same (between tags or
 * attributes, SQL between clauses, a message with `+`). Width is counted in characters, as the
 * formatter counts it, not in bytes.
 */
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from '../helpers/server'

const WIDTH: number = JSON.parse(readFileSync(path.join(ROOT, 'biome.json'), 'utf8')).formatter.lineWidth
const FOLDERS = ['src', 'tests', 'bench', 'e2e']
/** Our code: TypeScript, the browser scripts and the stylesheets (vendored files aside). */
const OURS = /\.(ts|js|css)$/

/** `file:line is N characters` for each line of `text` wider than `width`. */
export function wideLines(file: string, text: string, width: number): string[] {
  return text.split('\n').flatMap((line, i) => {
    const chars = [...line].length
    return chars > width ? [`${file}:${i + 1} is ${chars} characters (over ${width})`] : []
  })
}

const files = Bun.spawnSync(['git', 'ls-files', '--cached', '--others', '--exclude-standard', ...FOLDERS], {
  cwd: ROOT,
})
  .stdout.toString()
  .split('\n')
  .filter((f) => OURS.test(f) && !f.includes('/vendor/'))

test(`no line over ${WIDTH} characters in src/, tests/, bench/ and e2e/`, () => {
  expect(files.length).toBeGreaterThan(500)
  const wide = files.flatMap((f) => wideLines(f, readFileSync(path.join(ROOT, f), 'utf8'), WIDTH))
  expect(wide).toEqual([])
})

test('the check can fail: it names the file and line, and counts characters, not bytes', () => {
  const sample = ['const ok = 1', `const long = '${'x'.repeat(WIDTH)}'`, `// ${'—'.repeat(WIDTH - 3)}`].join('\n')
  expect(wideLines('src/sample.ts', sample, WIDTH)).toEqual([
    `src/sample.ts:2 is ${WIDTH + 15} characters (over ${WIDTH})`,
  ])
})
