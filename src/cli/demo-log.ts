/**
 * The demo's log: every line into DATA_DIR/logs/demo.log, and only warnings and errors on the
 * terminal, so the links the demo printed stay on screen while a browser (or a phone) clicks
 * around. Lines are the service's JSON lines (lib/log.ts), appended through a buffered stream.
 */
import { createWriteStream, mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Level, Logger } from '../lib/log'

const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

export function demoLogger(dataDir: string, level: string): { log: Logger; file: string } {
  const dir = path.join(dataDir, 'logs')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const file = path.join(dir, 'demo.log')
  const out = createWriteStream(file, { flags: 'a', mode: 0o600 })
  const min = ORDER[level as Level] ?? ORDER.info
  const write = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < min) return
    const line = `${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`
    out.write(line)
    if (ORDER[lvl] >= ORDER.warn) process.stderr.write(line)
  }
  return {
    log: {
      debug: write('debug'),
      info: write('info'),
      warn: write('warn'),
      error: write('error'),
      enabled: (lvl) => ORDER[lvl] >= min,
    },
    file,
  }
}
