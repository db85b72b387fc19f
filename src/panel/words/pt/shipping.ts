/** The Shipping page (Portuguese). */
import type { Words } from '../shape'

export const shipping: Words['shipping'] = {
  none: 'Ainda não há opções de frete.',
  add: 'Nova opção de frete',
  editTitle: (n) => `Editar ${n}`,
  descriptionHint: 'Opcional. Mostrada ao cliente no checkout.',
  days: 'Entrega estimada (dias)',
  daysHint: 'Opcional. De 0 a 365.',
  daysOf: (n) => (n === 1 ? '1 dia' : `${n} dias`),
  active: 'Oferecida no checkout',
  inactive: 'Não oferecida',
  editOf: (n) => `Editar ${n}`,
  removeOf: (n) => `Excluir ${n}`,
  removeTitle: (n) => `Excluir a opção de frete ${n}?`,
  removeText: 'Os pedidos já feitos mantêm o nome e o preço.',
  create: 'Criar opção de frete',
  back: 'Voltar às entregas',
  readOnly: 'Seu papel pode ver as opções de frete, mas não alterá-las.',
  done: { deleted: 'Opção de frete excluída.' },
}
