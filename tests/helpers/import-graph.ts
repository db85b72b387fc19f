/**
 * The source's import graph, type imports included (Bun's transpiler drops those, and a cycle
 * through types still ties files together for a reader): every `import … from`, `export … from`
 * and `import('…')` of a relative path, per file under src/.
 */
import { Glob } from 'bun'
import { existsSync } from 'node:fs'
import path from 'node:path'

export const ROOT = path.join(import.meta.dir, '../..')

const SPECIFIERS = [
  /\bimport\s+(?:type\s+)?[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bexport\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /^\s*import\s+['"]([^'"]+)['"]/gm,
]

/** `file` (relative to the repo) → the files it imports (relative, with extension). */
export async function importGraph(under = 'src'): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>()
  for await (const file of new Glob(`${under}/**/*.ts`).scan(ROOT)) {
    const code = (await Bun.file(path.join(ROOT, file)).text())
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    const out = new Set<string>()
    for (const re of SPECIFIERS) {
      for (const m of code.matchAll(re)) {
        const spec = m[1]!
        if (!spec.startsWith('.')) continue
        const base = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec))
        const target = [`${base}.ts`, `${base}/index.ts`, base].find((f) => existsSync(path.join(ROOT, f)))
        if (target?.endsWith('.ts')) out.add(target)
      }
    }
    graph.set(file, out)
  }
  return graph
}

/** Strongly connected components of more than one file (Tarjan): each is a cycle. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const on = new Set<string>()
  const out: string[][] = []
  const visit = (v: string) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!))
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = []
      let w: string
      do {
        w = stack.pop()!
        on.delete(w)
        comp.push(w)
      } while (w !== v)
      if (comp.length > 1) out.push(comp.sort())
    }
  }
  for (const v of graph.keys()) if (!idx.has(v)) visit(v)
  return out
}

/** The layers, lowest first: a file may import its own layer and the ones below. */
export const LAYERS: [string, RegExp][] = [
  ['lib', /^src\/(lib\/|config\.ts$)/],
  ['db', /^src\/db\//],
  ['kernel', /^src\/kernel\//],
  ['modules', /^src\/(modules|jobs|backup|replica)\//],
  ['adapters', /^src\/(http|plugins|shop|panel|mcp|openapi)\//],
  ['root', /^src\/(app|deps|server|index|tls|checkout-batcher)\.ts$|^src\/cli\//],
]

/**
 * A module's HTTP routes (`routes.ts`, `public-routes.ts`, the media route) sit in its folder for
 * locality but are the module's adapter: they belong to the adapters layer.
 */
const MODULE_ROUTES = /^src\/modules\/.+\/(routes|public-routes|media)\.ts$/
const ADAPTERS = LAYERS.findIndex(([name]) => name === 'adapters')

export const layerOf = (file: string): number =>
  MODULE_ROUTES.test(file) ? ADAPTERS : LAYERS.findIndex(([, re]) => re.test(file))

/** Imports that point up a layer, as `from → to`. */
export function upwardImports(graph: Map<string, Set<string>>): string[] {
  const out: string[] = []
  for (const [from, tos] of graph)
    for (const to of tos)
      if (layerOf(to) > layerOf(from))
        out.push(`${from} (${LAYERS[layerOf(from)]?.[0]}) → ${to} (${LAYERS[layerOf(to)]?.[0]})`)
  return out.sort()
}

/** A module's files reached from outside it other than through its index.ts. */
export function privateReaches(graph: Map<string, Set<string>>): string[] {
  const moduleOf = (f: string) => /^src\/modules\/[^/]+\//.exec(f)?.[0]
  const out: string[] = []
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const m = moduleOf(to)
      // A module's routes are its adapter: the API's route list (an adapter) imports them directly.
      if (m && moduleOf(from) !== m && to !== `${m}index.ts` && !(MODULE_ROUTES.test(to) && layerOf(from) >= ADAPTERS))
        out.push(`${from} → ${to}`)
    }
  }
  return out.sort()
}
