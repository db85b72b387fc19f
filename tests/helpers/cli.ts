/** The admin CLI in-process with `--json`, on a test app's DATA_DIR and clock. */
import { runAdmin } from '../../src/cli/admin'
import type { Clock } from '../../src/lib/time'
import type { Json } from './app'

export function adminJson(dataDir: string, clock: Clock, ...argv: string[]): { code: number; json: Json } {
  const out: string[] = []
  const code = runAdmin(
    [...argv, '--json'],
    (s) => out.push(s),
    { DATA_DIR: dataDir },
    () => {},
    { clock },
  )
  return { code, json: JSON.parse(out[0]!) }
}
