/** The Reviews page (Portuguese). */
import type { Words } from '../shape'

export const reviews: Words['reviews'] = {
  pending: 'Aguardando aprovação',
  others: 'Aprovadas e rejeitadas',
  none: 'Ainda não há avaliações.',
  approve: 'Aprovar',
  reject: 'Rejeitar',
  confirm: 'Excluir esta avaliação?',
  confirmText: 'Ela some para sempre, também da página do produto.',
  keep: 'Manter',
  rating: (n: number) => `${n} de 5`,
  status: { pending: 'Pendente', approved: 'Aprovada', rejected: 'Rejeitada' },
  upgrade: 'Aprovar e rejeitar avaliações vem com um plano pago.',
  upgradeLink: 'Ver os planos',
}
