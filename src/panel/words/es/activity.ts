/** The Activity page: who did what (Spanish). */
import type { Words } from '../shape'

export const activity: Words['activity'] = {
  record: 'Registro',
  anyone: 'Cualquiera',
  anyRecord: 'Cualquier registro',
  filter: 'Filtrar',
  when: 'Cuándo',
  what: 'Qué',
  noActivity: 'Nada todavía.',
}
