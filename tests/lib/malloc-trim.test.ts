/**
 * The C allocator's trim is reachable where the service runs (glibc: the image and this
 * machine), and calling it again and again is harmless. What it gives back is measured by
 * bench/memory.ts, not here (no memory figures in tests).
 */
import { expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { trimCAllocator } from '../../src/lib/malloc-trim'

const glibc = existsSync('/lib/x86_64-linux-gnu/libc.so.6') || existsSync('/lib/aarch64-linux-gnu/libc.so.6')

test.if(glibc)('on glibc, the trim is made, as often as asked', () => {
  expect(trimCAllocator()).toBe(true)
  expect(trimCAllocator()).toBe(true)
})
