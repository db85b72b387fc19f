import type { Command } from './commands'

export const BACKUP_COMMANDS: Record<string, Command> = {}
