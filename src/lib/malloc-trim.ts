/**
 * glibc's `malloc_trim(0)`: gives the C allocator's free pages back to the kernel, from every
 * arena and from inside them, not only at their tops. libvips (sharp) allocates its pixel
 * buffers with the C allocator on its worker threads; once a resize is done glibc keeps most of
 * what it freed (tens of MB after a few large uploads: bench/memory.ts, docs/decisions/031)
 * for the next allocation instead of returning it. Called when the resize slot falls idle, so
 * a queue of uploads reuses the memory and only the last one pays the trim (well under a ms).
 * Where the C library has no such call (musl) it does nothing.
 */
import { dlopen, FFIType } from 'bun:ffi'

let trim: (() => void) | undefined | null

function load(): (() => void) | null {
  try {
    const libc = dlopen('libc.so.6', { malloc_trim: { args: [FFIType.u64], returns: FFIType.i32 } })
    return () => void libc.symbols.malloc_trim(0)
  } catch {
    return null
  }
}

/** Returns the C allocator's free memory to the kernel (glibc); true when there was a call to make. */
export function trimCAllocator(): boolean {
  if (trim === undefined) trim = load()
  trim?.()
  return trim !== null
}
