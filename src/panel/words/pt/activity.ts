/** The Activity page: who did what (Portuguese). */
import type { Words } from '../shape'

export const activity: Words['activity'] = {
  record: 'Registro',
  anyone: 'Qualquer pessoa',
  anyRecord: 'Qualquer registro',
  filter: 'Filtrar',
  when: 'Quando',
  what: 'O quê',
  noActivity: 'Nada ainda.',
}
