/** The frame around every page: skip link, menus, badges, the store switcher (Spanish). */
import type { Words } from '../shape'

export const shell: Words['shell'] = {
  locale: 'es',
  languageName: 'Español',
  skip: 'Saltar al contenido',
  panel: 'Panel de vendedor',
  nav: 'Principal',
  pendingReviews: '{n} esperando aprobación',
  tabs: 'Accesos rápidos',
  more: 'Más',
  morePages: 'páginas',
  moreIntro: 'Todo lo demás del panel.',
  unseenOrders: '{n} nuevos',
  chime: 'Sonido de pedidos',
  signOut: 'Cerrar sesión',
  switchStore: 'Cambiar de tienda',
}
