/** The first run's page: the first store and its owner (Portuguese). */
import type { Words } from '../shape'

export const setup: Words['setup'] = {
  setupTitle: 'Configure sua loja',
  setupIntro: 'Crie a primeira loja e a conta do dono.',
  createStore: 'Criar loja',
  storeZoneHint:
    'Onde a loja fica, p. ex. America/Sao_Paulo. Os pedidos mostram o seu horário; mude depois em Configurações.',
  storeZoneInvalid: 'Digite o nome de um fuso horário, como America/Sao_Paulo, ou deixe vazio para UTC.',
}
