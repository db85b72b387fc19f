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
  /** A single review's rating as text: "4 out of 5". */
  outOf: (n: number) => string
  reviewsTitle: string
  moreReviews: string
  newerReviews: string
  reviewPages: string
  writeReview: string
  yourName: string
  ratingLabel: string
  stars: (n: number) => string
  reviewLabel: string
  /** Under the review field; `{max}` is the limit. The script replaces it with the live count. */
  reviewHint: string
  sendReview: string
  shareWhatsapp: string
  forbiddenTitle: string
  forbiddenText: string
  /** The review form's messages, for the page (no script) and the script alike. */
  review: ReviewWords
}

export interface ReviewWords {
  thanks: string
  sending: string
  /** The live count as the person types: `{n}` typed of `{max}`. */
  count: string
  nameRequired: string
  /** `{max}` characters at most. */
  nameTooLong: string
  ratingRequired: string
  reviewTooLong: string
  productGone: string
  invalid: string
  /** When another review may be written: about `{n}` hours, about an hour, about `{n}` minutes, about a minute. */
  limitHours: string
  limitHour: string
  limitMinutes: string
  limitMinute: string
  failed: string
  network: string
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
  outOf: (n) => `${n} out of 5`,
  reviewsTitle: 'Reviews',
  moreReviews: 'More reviews',
  newerReviews: 'Newer reviews',
  reviewPages: 'More pages of reviews',
  writeReview: 'Write a review',
  yourName: 'Your name',
  ratingLabel: 'Rating',
  stars: (n) => (n === 1 ? '1 star' : `${n} stars`),
  reviewLabel: 'Review',
  reviewHint: 'Optional, up to {max} characters.',
  sendReview: 'Send review',
  shareWhatsapp: 'Share on WhatsApp',
  forbiddenTitle: 'Not allowed',
  forbiddenText: 'This form can only be sent from the store’s own page. Go back to the product and try again.',
  review: {
    thanks: 'Thanks — your review will appear once the shop approves it.',
    sending: 'Sending your review…',
    count: '{n} of {max} characters',
    nameRequired: 'Enter your name.',
    nameTooLong: 'Your name can have at most {max} characters.',
    ratingRequired: 'Choose a rating from 1 to 5 stars.',
    reviewTooLong: 'Your review can have at most {max} characters.',
    productGone: 'This product can no longer be reviewed.',
    invalid: 'Please check this field.',
    limitHours: 'You can write another review in about {n} hours.',
    limitHour: 'You can write another review in about an hour.',
    limitMinutes: 'You can write another review in about {n} minutes.',
    limitMinute: 'You can write another review in about a minute.',
    failed: 'Something went wrong. Please try again.',
    network: 'Could not reach the store. Check your connection and try again.',
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
  outOf: (n) => `${n} de 5`,
  reviewsTitle: 'Reseñas',
  moreReviews: 'Más reseñas',
  newerReviews: 'Reseñas más recientes',
  reviewPages: 'Más páginas de reseñas',
  writeReview: 'Escribe una reseña',
  yourName: 'Tu nombre',
  ratingLabel: 'Valoración',
  stars: (n) => (n === 1 ? '1 estrella' : `${n} estrellas`),
  reviewLabel: 'Reseña',
  reviewHint: 'Opcional, hasta {max} caracteres.',
  sendReview: 'Enviar reseña',
  shareWhatsapp: 'Compartir por WhatsApp',
  forbiddenTitle: 'No permitido',
  forbiddenText: 'Este formulario solo se puede enviar desde la página de la tienda. Vuelve al producto e inténtalo de nuevo.',
  review: {
    thanks: 'Gracias — tu reseña aparecerá cuando la tienda la apruebe.',
    sending: 'Enviando tu reseña…',
    count: '{n} de {max} caracteres',
    nameRequired: 'Escribe tu nombre.',
    nameTooLong: 'Tu nombre puede tener como máximo {max} caracteres.',
    ratingRequired: 'Elige una valoración de 1 a 5 estrellas.',
    reviewTooLong: 'Tu reseña puede tener como máximo {max} caracteres.',
    productGone: 'Ya no se pueden escribir reseñas de este producto.',
    invalid: 'Revisa este campo.',
    limitHours: 'Podrás escribir otra reseña en unas {n} horas.',
    limitHour: 'Podrás escribir otra reseña en una hora, más o menos.',
    limitMinutes: 'Podrás escribir otra reseña en unos {n} minutos.',
    limitMinute: 'Podrás escribir otra reseña en un minuto, más o menos.',
    failed: 'Algo salió mal. Vuelve a intentarlo.',
    network: 'No se pudo contactar con la tienda. Revisa tu conexión y vuelve a intentarlo.',
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
  outOf: (n) => `${n} de 5`,
  reviewsTitle: 'Avaliações',
  moreReviews: 'Mais avaliações',
  newerReviews: 'Avaliações mais recentes',
  reviewPages: 'Mais páginas de avaliações',
  writeReview: 'Escreva uma avaliação',
  yourName: 'Seu nome',
  ratingLabel: 'Nota',
  stars: (n) => (n === 1 ? '1 estrela' : `${n} estrelas`),
  reviewLabel: 'Avaliação',
  reviewHint: 'Opcional, até {max} caracteres.',
  sendReview: 'Enviar avaliação',
  shareWhatsapp: 'Compartilhar no WhatsApp',
  forbiddenTitle: 'Não permitido',
  forbiddenText: 'Este formulário só pode ser enviado pela página da própria loja. Volte ao produto e tente de novo.',
  review: {
    thanks: 'Obrigado — sua avaliação aparecerá quando a loja aprová-la.',
    sending: 'Enviando sua avaliação…',
    count: '{n} de {max} caracteres',
    nameRequired: 'Digite seu nome.',
    nameTooLong: 'Seu nome pode ter no máximo {max} caracteres.',
    ratingRequired: 'Escolha uma nota de 1 a 5 estrelas.',
    reviewTooLong: 'Sua avaliação pode ter no máximo {max} caracteres.',
    productGone: 'Este produto não pode mais ser avaliado.',
    invalid: 'Verifique este campo.',
    limitHours: 'Você poderá escrever outra avaliação em cerca de {n} horas.',
    limitHour: 'Você poderá escrever outra avaliação em cerca de uma hora.',
    limitMinutes: 'Você poderá escrever outra avaliação em cerca de {n} minutos.',
    limitMinute: 'Você poderá escrever outra avaliação em cerca de um minuto.',
    failed: 'Algo deu errado. Tente de novo.',
    network: 'Não foi possível falar com a loja. Verifique sua conexão e tente de novo.',
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

/**
 * When another review may be written, in words: "in about 5 hours", "in about an hour", "in
 * about 20 minutes". `seconds` is the limiter's reset time (Retry-After). The script rounds the
 * same way (assets/shop.js, `retryText`); a test holds the two together.
 */
export function retryText(w: ReviewWords, seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60))
  if (minutes >= 90) return w.limitHours.replace('{n}', String(Math.round(minutes / 60)))
  if (minutes >= 45) return w.limitHour
  return minutes === 1 ? w.limitMinute : w.limitMinutes.replace('{n}', String(minutes))
}

const dates = new Map<string, Intl.DateTimeFormat>()

/** A day in the store's language ("March 1, 2026", "1 de marzo de 2026"), in UTC: the page is the same for everyone. */
export function formatDate(isoDate: string, locale: string): string {
  let f = dates.get(locale)
  if (!f) dates.set(locale, (f = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' })))
  return f.format(new Date(isoDate))
}
