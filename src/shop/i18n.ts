/**
 * The storefront's words in the store's `language` (es | en | pt). `client` holds the ones the
 * cart script shows; the page hands them to it in its data block, so the script itself has no
 * words and stays one cacheable file for every language.
 */
import type { Language } from '../db/schema'

export interface Words {
  locale: string
  skip: string
  cart: string
  cartTitle: string
  categories: string
  other: string
  allProducts: string
  noProducts: string
  from: string
  regularPrice: string
  soldOut: string
  addToCart: string
  chooseOption: string
  quantity: string
  reviews: (n: number) => string
  rating: (avg: string) => string
  noReviews: string
  contactWhatsapp: string
  backToCatalog: string
  needsJs: string
  notFoundTitle: string
  notFoundText: string
  unavailableTitle: string
  unavailableText: string
  busyTitle: string
  busyText: string
  storesTitle: string
  storesIntro: string
  noStores: string
  checkout: string
  shipping: string
  days: (n: number) => string
  name: string
  phone: string
  phoneHint: string
  address: string
  notes: string
  discountCode: string
  placeOrder: string
  subtotal: string
  total: string
  totalNote: string
  client: Record<string, string>
}

const en: Words = {
  locale: 'en',
  skip: 'Skip to content',
  cart: 'Cart',
  cartTitle: 'Your cart',
  categories: 'Categories',
  other: 'More products',
  allProducts: 'Products',
  noProducts: 'No products yet.',
  from: 'From',
  regularPrice: 'Regular price',
  soldOut: 'Sold out',
  addToCart: 'Add to cart',
  chooseOption: 'Choose an option',
  quantity: 'Quantity',
  reviews: (n) => (n === 1 ? '1 review' : `${n} reviews`),
  rating: (avg) => `Rated ${avg} out of 5`,
  noReviews: 'No reviews yet',
  contactWhatsapp: 'Contact us on WhatsApp',
  backToCatalog: 'Back to the catalog',
  needsJs: 'Ordering needs JavaScript. You can still browse the catalog, or contact the store on WhatsApp.',
  notFoundTitle: 'Page not found',
  notFoundText: 'This store or page does not exist, or it is not open right now.',
  unavailableTitle: 'Temporarily unavailable',
  unavailableText: 'This store is temporarily unavailable. Please come back later.',
  busyTitle: 'Too many pages at once',
  busyText: 'This connection has opened a great many pages in the last minute. Please wait a minute and try again.',
  storesTitle: 'Stores',
  storesIntro: 'Choose a store to browse its catalog.',
  noStores: 'There are no stores to show yet.',
  checkout: 'Checkout',
  shipping: 'Shipping',
  days: (n) => (n === 1 ? '1 day' : `${n} days`),
  name: 'Name',
  phone: 'Phone',
  phoneHint: 'With country code, e.g. +1 415 555 0100',
  address: 'Address',
  notes: 'Notes (optional)',
  discountCode: 'Discount code (optional)',
  placeOrder: 'Place order',
  subtotal: 'Subtotal',
  total: 'Total',
  totalNote: 'A discount code is applied when you place the order.',
  client: {
    added: 'Added to cart.',
    chooseFirst: 'Choose an option first.',
    empty: 'Your cart is empty.',
    remove: 'Remove',
    quantityOf: 'Quantity of {name}',
    unavailable: 'No longer available',
    placing: 'Placing your order…',
    required: 'This field is required.',
    invalidPhone: 'Enter a valid phone number with its country code, e.g. +1 415 555 0100.',
    tooLong: 'This is too long.',
    notFound: 'This is no longer available. Remove it to go on.',
    inactive: 'This is not available right now.',
    unknownCode: 'We do not know this discount code.',
    expired: 'This discount code has expired.',
    exhausted: 'This discount code has been used up.',
    belowMinimum: 'Your order does not reach the minimum for this discount code.',
    invalid: 'Please check this field.',
    duplicate: 'It looks like you already placed this order a few minutes ago. Check your messages, or change the order to place another one.',
    outOfStock: 'Sorry, there is not enough stock left of an item in your cart. Lower the quantity or remove it.',
    available: 'Only {n} left.',
    soldOutNow: 'Sorry, this has just sold out. Remove it to go on.',
    tooMany: 'Too many attempts. Please wait a minute and try again.',
    failed: 'Something went wrong. Please try again.',
    network: 'Could not reach the store. Check your connection and try again.',
    placed: 'Order placed',
    orderNumber: 'Order number',
    whatsapp: 'Send the order on WhatsApp',
    continueShopping: 'Continue shopping',
  },
}

const es: Words = {
  locale: 'es',
  skip: 'Saltar al contenido',
  cart: 'Carrito',
  cartTitle: 'Tu carrito',
  categories: 'Categorías',
  other: 'Más productos',
  allProducts: 'Productos',
  noProducts: 'Todavía no hay productos.',
  from: 'Desde',
  regularPrice: 'Precio normal',
  soldOut: 'Agotado',
  addToCart: 'Agregar al carrito',
  chooseOption: 'Elige una opción',
  quantity: 'Cantidad',
  reviews: (n) => (n === 1 ? '1 reseña' : `${n} reseñas`),
  rating: (avg) => `Valorado con ${avg} de 5`,
  noReviews: 'Sin reseñas todavía',
  contactWhatsapp: 'Escríbenos por WhatsApp',
  backToCatalog: 'Volver al catálogo',
  needsJs: 'Para pedir hace falta JavaScript. Puedes ver el catálogo o escribir a la tienda por WhatsApp.',
  notFoundTitle: 'Página no encontrada',
  notFoundText: 'Esta tienda o página no existe, o no está abierta ahora.',
  unavailableTitle: 'No disponible por ahora',
  unavailableText: 'Esta tienda no está disponible por el momento. Vuelve más tarde.',
  busyTitle: 'Demasiadas páginas a la vez',
  busyText: 'Desde esta conexión se han abierto muchísimas páginas en el último minuto. Espera un minuto y vuelve a intentarlo.',
  storesTitle: 'Tiendas',
  storesIntro: 'Elige una tienda para ver su catálogo.',
  noStores: 'Todavía no hay tiendas.',
  checkout: 'Finalizar pedido',
  shipping: 'Envío',
  days: (n) => (n === 1 ? '1 día' : `${n} días`),
  name: 'Nombre',
  phone: 'Teléfono',
  phoneHint: 'Con código de país, p. ej. +51 987 654 321',
  address: 'Dirección',
  notes: 'Notas (opcional)',
  discountCode: 'Código de descuento (opcional)',
  placeOrder: 'Hacer pedido',
  subtotal: 'Subtotal',
  total: 'Total',
  totalNote: 'El código de descuento se aplica al hacer el pedido.',
  client: {
    added: 'Agregado al carrito.',
    chooseFirst: 'Elige una opción primero.',
    empty: 'Tu carrito está vacío.',
    remove: 'Quitar',
    quantityOf: 'Cantidad de {name}',
    unavailable: 'Ya no está disponible',
    placing: 'Enviando tu pedido…',
    required: 'Este campo es obligatorio.',
    invalidPhone: 'Escribe un teléfono válido con código de país, p. ej. +51 987 654 321.',
    tooLong: 'Es demasiado largo.',
    notFound: 'Esto ya no está disponible. Quítalo para continuar.',
    inactive: 'Esto no está disponible ahora.',
    unknownCode: 'No conocemos este código de descuento.',
    expired: 'Este código de descuento ha vencido.',
    exhausted: 'Este código de descuento ya se agotó.',
    belowMinimum: 'Tu pedido no llega al mínimo de este código de descuento.',
    invalid: 'Revisa este campo.',
    duplicate: 'Parece que ya hiciste este pedido hace unos minutos. Revisa tus mensajes, o cambia el pedido para hacer otro.',
    outOfStock: 'Lo sentimos, no queda suficiente stock de un producto de tu carrito. Baja la cantidad o quítalo.',
    available: 'Solo quedan {n}.',
    soldOutNow: 'Lo sentimos, se acaba de agotar. Quítalo para continuar.',
    tooMany: 'Demasiados intentos. Espera un minuto y vuelve a intentarlo.',
    failed: 'Algo salió mal. Vuelve a intentarlo.',
    network: 'No se pudo contactar con la tienda. Revisa tu conexión y vuelve a intentarlo.',
    placed: 'Pedido realizado',
    orderNumber: 'Número de pedido',
    whatsapp: 'Enviar el pedido por WhatsApp',
    continueShopping: 'Seguir comprando',
  },
}

const pt: Words = {
  locale: 'pt-BR',
  skip: 'Ir para o conteúdo',
  cart: 'Carrinho',
  cartTitle: 'Seu carrinho',
  categories: 'Categorias',
  other: 'Mais produtos',
  allProducts: 'Produtos',
  noProducts: 'Ainda não há produtos.',
  from: 'A partir de',
  regularPrice: 'Preço normal',
  soldOut: 'Esgotado',
  addToCart: 'Adicionar ao carrinho',
  chooseOption: 'Escolha uma opção',
  quantity: 'Quantidade',
  reviews: (n) => (n === 1 ? '1 avaliação' : `${n} avaliações`),
  rating: (avg) => `Nota ${avg} de 5`,
  noReviews: 'Ainda sem avaliações',
  contactWhatsapp: 'Fale conosco no WhatsApp',
  backToCatalog: 'Voltar ao catálogo',
  needsJs: 'Para fazer pedidos é preciso JavaScript. Você ainda pode ver o catálogo ou falar com a loja no WhatsApp.',
  notFoundTitle: 'Página não encontrada',
  notFoundText: 'Esta loja ou página não existe, ou não está aberta agora.',
  unavailableTitle: 'Indisponível no momento',
  unavailableText: 'Esta loja está indisponível no momento. Volte mais tarde.',
  busyTitle: 'Páginas demais de uma vez',
  busyText: 'Esta conexão abriu muitíssimas páginas no último minuto. Espere um minuto e tente de novo.',
  storesTitle: 'Lojas',
  storesIntro: 'Escolha uma loja para ver o catálogo.',
  noStores: 'Ainda não há lojas.',
  checkout: 'Finalizar pedido',
  shipping: 'Entrega',
  days: (n) => (n === 1 ? '1 dia' : `${n} dias`),
  name: 'Nome',
  phone: 'Telefone',
  phoneHint: 'Com código do país, ex. +55 11 91234 5678',
  address: 'Endereço',
  notes: 'Observações (opcional)',
  discountCode: 'Cupom de desconto (opcional)',
  placeOrder: 'Fazer pedido',
  subtotal: 'Subtotal',
  total: 'Total',
  totalNote: 'O cupom de desconto é aplicado ao fazer o pedido.',
  client: {
    added: 'Adicionado ao carrinho.',
    chooseFirst: 'Escolha uma opção primeiro.',
    empty: 'Seu carrinho está vazio.',
    remove: 'Remover',
    quantityOf: 'Quantidade de {name}',
    unavailable: 'Não está mais disponível',
    placing: 'Enviando seu pedido…',
    required: 'Este campo é obrigatório.',
    invalidPhone: 'Digite um telefone válido com código do país, ex. +55 11 91234 5678.',
    tooLong: 'É longo demais.',
    notFound: 'Isto não está mais disponível. Remova para continuar.',
    inactive: 'Isto não está disponível agora.',
    unknownCode: 'Não conhecemos este cupom.',
    expired: 'Este cupom expirou.',
    exhausted: 'Este cupom já foi usado o máximo de vezes.',
    belowMinimum: 'Seu pedido não atinge o mínimo deste cupom.',
    invalid: 'Verifique este campo.',
    duplicate: 'Parece que você já fez este pedido há alguns minutos. Confira suas mensagens, ou altere o pedido para fazer outro.',
    outOfStock: 'Desculpe, não há estoque suficiente de um item do seu carrinho. Diminua a quantidade ou remova-o.',
    available: 'Restam apenas {n}.',
    soldOutNow: 'Desculpe, acabou de esgotar. Remova-o para continuar.',
    tooMany: 'Muitas tentativas. Espere um minuto e tente de novo.',
    failed: 'Algo deu errado. Tente de novo.',
    network: 'Não foi possível falar com a loja. Verifique sua conexão e tente de novo.',
    placed: 'Pedido feito',
    orderNumber: 'Número do pedido',
    whatsapp: 'Enviar o pedido pelo WhatsApp',
    continueShopping: 'Continuar comprando',
  },
}

export const WORDS: Record<Language, Words> = { en, es, pt }

export const wordsFor = (language: string | undefined): Words => WORDS[(language as Language) ?? 'en'] ?? en

const formats = new Map<string, Intl.NumberFormat>()

/** Money in the store's currency and language; `amount` is in major units, as the services return it. */
export function formatMoney(amount: number, currency: string, locale: string): string {
  const key = `${locale}|${currency}`
  let f = formats.get(key)
  if (!f) formats.set(key, (f = new Intl.NumberFormat(locale, { style: 'currency', currency })))
  return f.format(amount)
}
