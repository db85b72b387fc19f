/** The Settings page and its WhatsApp message preview (Portuguese). */
import type { Words } from '../shape'

export const settings: Words['settings'] = {
  storeName: 'Nome da loja',
  timezone: 'Fuso horário',
  whatsappNumber: 'Número de WhatsApp',
  whatsappTemplate: 'Modelo da mensagem de WhatsApp',
  templateHint:
    'Marcadores: {loja}, {cliente}, {pedido}, {itens}, {frete}, {desconto}, {total}, {endereco}, {status_url} (os ' +
    'nomes em inglês e espanhol também valem). Deixe vazio para usar o padrão.',
  preview: 'Pré-visualizar',
  previewTitle: 'Pré-visualização da mensagem (pedido de exemplo)',
  sampleCustomer: 'Ana Silva',
  sampleLine1: 'Café em grão 1 kg',
  sampleLine2: 'Caneca',
  sampleShipping: 'Transportadora',
  sampleAddress: 'Rua do Jardim 12, Campinas',
  storeLanguage: 'Idioma da loja',
  currency: 'Moeda',
  currencyHint: 'Código ISO 4217, p. ex. BRL.',
  published: 'Publicada',
  maintenance: 'Modo manutenção',
  pendingTtl: 'Cancelar pedidos pendentes depois de (horas)',
  pendingTtlHint: '0 = nunca.',
  timezoneHint:
    'Onde a loja fica, p. ex. America/Sao_Paulo: o painel, a página do pedido do cliente e os números diários ' +
    'usam o seu horário.',
  timezoneInvalid: 'Digite o nome de um fuso horário, como America/Sao_Paulo ou Europe/Lisbon.',
  showStockCount: 'Mostrar o estoque na loja',
  viewShop: 'Ver a loja',
}
