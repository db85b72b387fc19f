/** A field's problem, by the API's reason, and the banner that lists them (Portuguese). */
import type { Words } from '../shape'

export const problems: Words['problems'] = {
  err: {
    required: 'Preencha este campo.',
    invalid_type: 'Digite um número.',
    out_of_range: 'Este valor está fora do intervalo permitido.',
    invalid_format: 'Este valor não está no formato certo.',
    not_found: 'Isto não existe nesta loja.',
    duplicate: 'Este valor aparece duas vezes.',
    private_address: 'Este endereço aponta para uma rede privada; use uma URL https pública.',
    other: 'Este valor não é aceito.',
  },
  wholeNumber: 'Digite um número inteiro.',
  decimals: (n) =>
    n === 0
      ? 'Digite um valor inteiro, sem decimais.'
      : `Use no máximo ${n} casa${n === 1 ? '' : 's'} decima${n === 1 ? 'l' : 'is'}.`,
  atLeast: (n) => `Digite ${n} ou mais.`,
  comparePriceAbove: 'O preço de comparação deve ser maior que o preço.',
  slugTaken: 'Outro produto já usa este nome no endereço. Mude o nome.',
  phoneInvalid: 'Digite o número no formato internacional, p. ex. +5511955550100.',
  shortcodesUnknown: (codes) =>
    `Marcadores desconhecidos: ${codes}. Use {loja}, {cliente}, {pedido}, {itens}, {frete}, {desconto}, {total}, ` +
    `{endereco} ou {status_url}.`,
  currencyLocked: (c) => `A moeda continua ${c} depois que a loja tem produtos, fretes, descontos ou pedidos.`,
  planLimit: 'Seu plano não permite isto.',
  upgradePlan: 'Melhorar o plano',
  problemTitle: 'Há um problema',
}
