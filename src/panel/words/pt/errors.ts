/** The pages that refuse or fail: not allowed, not found, suspended, busy (Portuguese). */
import type { Words } from '../shape'

export const errors: Words['errors'] = {
  forbiddenTitle: 'Não permitido',
  forbiddenText: 'O seu papel nesta loja não permite esta página.',
  crossSiteText: 'Este formulário não foi enviado deste painel, então nada mudou.',
  noStoreTitle: 'Sem loja',
  noStoreText: 'Você não está em nenhuma loja. Peça a um dono para convidar você de novo.',
  suspendedTitle: 'Loja suspensa',
  suspendedText: (s) =>
    `${s} está suspensa por uma fatura em aberto. Nada nela pode ser mostrado ou mudado até o pagamento ser ` +
    `registrado.`,
  suspendedReason: (r) => `Motivo: ${r}.`,
  upgrade: 'Pagar',
  notFoundTitle: 'Página não encontrada',
  notFoundText: 'Não há nada neste endereço.',
  backToDashboard: 'Voltar ao início',
  busyTitle: 'Ocupado',
  busyText: 'Muitos acessos ao mesmo tempo. Tente de novo em instantes.',
  errorTitle: 'Algo deu errado',
}
