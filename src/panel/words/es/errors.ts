/** The pages that refuse or fail: not allowed, not found, suspended, busy (Spanish). */
import type { Words } from '../shape'

export const errors: Words['errors'] = {
  forbiddenTitle: 'No permitido',
  forbiddenText: 'Tu rol en esta tienda no permite esta página.',
  crossSiteText: 'Este formulario no se envió desde este panel, así que no se cambió nada.',
  noStoreTitle: 'Sin tienda',
  noStoreText: 'No estás en ninguna tienda. Pide a un dueño que te invite de nuevo.',
  suspendedTitle: 'Tienda suspendida',
  suspendedText: (s) =>
    `${s} está suspendida por una factura impaga. No se puede ver ni cambiar nada hasta que se registre el pago.`,
  suspendedReason: (r) => `Motivo: ${r}.`,
  upgrade: 'Pagar',
  notFoundTitle: 'Página no encontrada',
  notFoundText: 'No hay nada en esta dirección.',
  backToDashboard: 'Volver al inicio',
  busyTitle: 'Ocupado',
  busyText: 'Demasiados inicios de sesión a la vez. Inténtalo en un momento.',
  errorTitle: 'Algo salió mal',
}
