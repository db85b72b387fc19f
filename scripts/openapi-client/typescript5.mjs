// Node module hook: `typescript` resolves to the `typescript5` alias. openapi-typescript 7 builds
// its output with TypeScript 5's compiler API, which TypeScript 7's package no longer has.
import { register } from 'node:module'

const hook = `export async function resolve(specifier, context, next) {
  return next(specifier === 'typescript' ? 'typescript5' : specifier, context)
}`
register(`data:text/javascript,${encodeURIComponent(hook)}`)
