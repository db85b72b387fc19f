/** The Activity page: who did what (English). */
export const activity = {
  record: 'Record',
  anyone: 'Anyone',
  anyRecord: 'Any record',
  filter: 'Filter',
  when: 'When',
  what: 'What',
  noActivity: 'Nothing yet.',
}
