/** The Categories page (Spanish). */
import type { Words } from '../shape'

export const categories: Words['categories'] = {
  intro: 'La tienda muestra las categorías en este orden.',
  none: 'Aún no hay categorías.',
  add: 'Añadir categoría',
  name: 'Nombre de la categoría',
  inactive: 'Oculta',
  rename: 'Renombrar',
  renameOf: (n) => `Renombrar ${n}`,
  editTitle: (n) => `Editar ${n}`,
  moveUpOf: (n) => `Subir: ${n}`,
  moveDownOf: (n) => `Bajar: ${n}`,
  removeOf: (n) => `Eliminar ${n}`,
  removeTitle: (n) => `¿Eliminar la categoría ${n}?`,
  removeText: 'Sus productos siguen en la tienda, sin categoría.',
  slugTaken: 'Otra categoría ya tiene este nombre en su dirección. Elige otro nombre.',
  back: 'Volver a categorías',
  readOnly: 'Tu rol puede ver las categorías pero no cambiarlas.',
  done: { deleted: 'Categoría eliminada.', moved: 'Orden guardado.' },
}
