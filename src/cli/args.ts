/** `cmd pos1 --flag value --bool` → { command, positional, flags }. */
export function parseArgs(argv: string[]) {
  const [command = 'help', ...rest] = argv
  const positional: string[] = []
  const flags: Record<string, string | true> = {}
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!
    if (a.startsWith('--')) {
      const eq = a.indexOf('=')
      if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1)
      else if (rest[i + 1] !== undefined && !rest[i + 1]!.startsWith('--')) flags[a.slice(2)] = rest[++i]!
      else flags[a.slice(2)] = true
    } else positional.push(a)
  }
  return { command, positional, flags }
}
