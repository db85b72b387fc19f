/**
 * The words of an order's line table (items, quantities, prices, totals):
 * the seller's order page and the customer's status page say them alike.
 */
export const ORDER_LINE_WORDS = {
  en: {
    items: 'Items',
    product: 'Product',
    quantity: 'Quantity',
    price: 'Price',
    subtotal: 'Subtotal',
    shipping: 'Shipping',
    discount: (code: string) => `Discount (${code})`,
    total: 'Total',
  },
  es: {
    items: 'Productos',
    product: 'Producto',
    quantity: 'Cantidad',
    price: 'Precio',
    subtotal: 'Subtotal',
    shipping: 'Envío',
    discount: (code: string) => `Descuento (${code})`,
    total: 'Total',
  },
  pt: {
    items: 'Itens',
    product: 'Produto',
    quantity: 'Quantidade',
    price: 'Preço',
    subtotal: 'Subtotal',
    shipping: 'Frete',
    discount: (code: string) => `Desconto (${code})`,
    total: 'Total',
  },
}
