/** The Shipping page (Spanish). */
import type { Words } from '../shape'

export const shipping: Words['shipping'] = {
  none: 'Aún no hay opciones de envío.',
  add: 'Nueva opción de envío',
  editTitle: (n) => `Editar ${n}`,
  descriptionHint: 'Opcional. Se muestra al cliente al pagar.',
  days: 'Entrega estimada (días)',
  daysHint: 'Opcional. De 0 a 365.',
  daysOf: (n) => (n === 1 ? '1 día' : `${n} días`),
  active: 'Se ofrece al pagar',
  inactive: 'No se ofrece',
  editOf: (n) => `Editar ${n}`,
  removeOf: (n) => `Eliminar ${n}`,
  removeTitle: (n) => `¿Eliminar la opción de envío ${n}?`,
  removeText: 'Los pedidos ya hechos conservan su nombre y su precio.',
  create: 'Crear opción de envío',
  back: 'Volver a envíos',
  readOnly: 'Tu rol puede ver las opciones de envío pero no cambiarlas.',
  done: { deleted: 'Opción de envío eliminada.' },
}
