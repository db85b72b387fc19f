/**
 * CUID2 ids made with the algorithm of
 * `@paralleldrive/cuid2` 3.x — a random letter, then base 36 of SHA3-512(time + salt +
 * counter + host fingerprint) — but with native SHA3 (node:crypto, so drizzle-kit under Node can load the schema too)
 * and BigInt. The package does the hash in JavaScript and the base conversion with bignumber.js: ~0.35 ms an id on
 * these machines, which alone capped checkout at a few thousand ids per second; this takes ~15 µs.
 */
import { createHash } from 'node:crypto'

const LENGTH = 24
const BIG_LENGTH = 32
const INITIAL_COUNT_MAX = 476_782_367

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz'
const pool = new Uint32Array(256)
let poolAt = pool.length

/** A uniform integer in [0, n) from a pooled CSPRNG buffer (the package: floor(random() * n)). */
function randomInt(n: number): number {
  if (poolAt === pool.length) {
    crypto.getRandomValues(pool)
    poolAt = 0
  }
  return Math.floor((pool[poolAt++]! / 0x1_0000_0000) * n)
}

const codes = new Uint8Array(LENGTH)
const ascii = new TextDecoder()
/** `length` random base-36 characters (char codes in a reused buffer: no string concatenation per character). */
function entropy(length: number): string {
  const c = length === LENGTH ? codes : new Uint8Array(length)
  for (let i = 0; i < length; i++) c[i] = BASE36.charCodeAt(randomInt(36))
  return ascii.decode(c)
}

// Bun's one-shot hasher where there is one (~25 % faster per id); node:crypto elsewhere.
const BunHasher = (globalThis as { Bun?: { CryptoHasher: { hash(alg: string, input: string, enc: 'hex'): string } } })
  .Bun?.CryptoHasher
const sha3Hex: (input: string) => string = BunHasher
  ? (input) => BunHasher.hash('sha3-512', input, 'hex')
  : (input) => createHash('sha3-512').update(input).digest('hex')

/** base 36 of the SHA3-512 digest, first character dropped (it biases the histogram). */
function hash(input: string): string {
  return BigInt(`0x${sha3Hex(input)}`)
    .toString(36)
    .slice(1)
}

const fingerprint = hash(Object.keys(globalThis).toString() + entropy(BIG_LENGTH)).substring(0, BIG_LENGTH)
let counter = randomInt(INITIAL_COUNT_MAX)

export function createId(): string {
  const firstLetter = String.fromCharCode(97 + randomInt(26))
  const input = Date.now().toString(36) + entropy(LENGTH) + (counter++).toString(36) + fingerprint
  return firstLetter + hash(input).substring(1, LENGTH)
}
