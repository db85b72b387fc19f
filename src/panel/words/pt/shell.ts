/** The frame around every page: skip link, menus, badges, the store switcher (Portuguese). */
import type { Words } from '../shape'

export const shell: Words['shell'] = {
  locale: 'pt',
  languageName: 'Português',
  skip: 'Pular para o conteúdo',
  panel: 'Painel do vendedor',
  nav: 'Principal',
  pendingReviews: '{n} aguardando aprovação',
  tabs: 'Atalhos',
  more: 'Mais',
  morePages: 'páginas',
  moreIntro: 'Todo o resto do painel.',
  unseenOrders: '{n} novos',
  chime: 'Som de pedidos',
  signOut: 'Sair',
  switchStore: 'Trocar de loja',
}
