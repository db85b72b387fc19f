/** A tiny synchronous publish/subscribe: listeners run in order; one that throws does not stop the others. */
export class Signal<T> {
  private listeners = new Set<(value: T) => void>()

  /** Adds a listener; returns the function that removes it. */
  on(fn: (value: T) => void): () => void {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  emit(value: T): void {
    for (const fn of this.listeners) {
      try {
        fn(value)
      } catch {
        /* a listener's failure is its own */
      }
    }
  }
}
