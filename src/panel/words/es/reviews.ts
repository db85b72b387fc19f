/** The Reviews page (Spanish). */
import type { Words } from '../shape'

export const reviews: Words['reviews'] = {
  pending: 'Esperando aprobación',
  others: 'Aprobadas y rechazadas',
  none: 'Aún no hay reseñas.',
  approve: 'Aprobar',
  reject: 'Rechazar',
  confirm: '¿Eliminar esta reseña?',
  confirmText: 'Se borra para siempre, también de la página del producto.',
  keep: 'Conservarla',
  rating: (n: number) => `${n} de 5`,
  status: { pending: 'Pendiente', approved: 'Aprobada', rejected: 'Rechazada' },
  upgrade: 'Aprobar y rechazar reseñas viene con un plan de pago.',
  upgradeLink: 'Ver los planes',
}
