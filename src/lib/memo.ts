/**
 * A function's answers kept by a key of its arguments, at most `max` of them, the oldest dropped
 * first: for pure look-ups that cost far more than a Map hit (parsing a phone number, asking the
 * runtime's zone data, reading a template) and are asked again and again with few distinct
 * arguments. An answer of `undefined` or `null` is kept like any other.
 */
export function boundedMemo<A extends unknown[], V>(
  max: number,
  keyOf: (...args: A) => string,
  compute: (...args: A) => V,
): (...args: A) => V {
  const answers = new Map<string, V>()
  return (...args) => {
    const key = keyOf(...args)
    if (answers.has(key)) return answers.get(key) as V
    const value = compute(...args)
    if (answers.size >= max) answers.delete(answers.keys().next().value!)
    answers.set(key, value)
    return value
  }
}
