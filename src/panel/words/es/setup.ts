/** The first run's page: the first store and its owner (Spanish). */
import type { Words } from '../shape'

export const setup: Words['setup'] = {
  setupTitle: 'Configura tu tienda',
  setupIntro: 'Crea la primera tienda y la cuenta de su dueño.',
  createStore: 'Crear tienda',
  storeZoneHint:
    'Donde está la tienda, p. ej. America/Bogota. Los pedidos muestran su hora; puedes cambiarla en Ajustes.',
  storeZoneInvalid: 'Escribe el nombre de una zona horaria, como America/Bogota, o déjalo vacío para UTC.',
}
