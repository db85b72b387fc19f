/** A field's problem, by the API's reason, and the banner that lists them (Spanish). */
import type { Words } from '../shape'

export const problems: Words['problems'] = {
  err: {
    required: 'Completa este campo.',
    invalid_type: 'Escribe un número.',
    out_of_range: 'Este valor está fuera del rango permitido.',
    invalid_format: 'Este valor no tiene el formato correcto.',
    not_found: 'Esto no existe en esta tienda.',
    duplicate: 'Este valor aparece dos veces.',
    private_address: 'Esta dirección apunta a una red privada; usa una URL https pública.',
    other: 'Este valor no se acepta.',
  },
  wholeNumber: 'Escribe un número entero.',
  decimals: (n) =>
    n === 0 ? 'Escribe un importe entero, sin decimales.' : `Usa como máximo ${n} decimal${n === 1 ? '' : 'es'}.`,
  atLeast: (n) => `Escribe ${n} o más.`,
  comparePriceAbove: 'El precio de comparación debe ser mayor que el precio.',
  slugTaken: 'Otro producto ya usa este nombre en su dirección. Cambia el nombre.',
  phoneInvalid: 'Escribe el número en formato internacional, p. ej. +5491155550100.',
  shortcodesUnknown: (codes) =>
    `Marcadores desconocidos: ${codes}. Usa {tienda}, {nombre}, {pedido}, {productos}, {envio}, {descuento}, ` +
    `{total}, {direccion} o {status_url}.`,
  currencyLocked: (c) =>
    `La moneda sigue siendo ${c} una vez que la tienda tiene productos, envíos, descuentos o pedidos.`,
  planLimit: 'Tu plan no permite esto.',
  upgradePlan: 'Mejorar el plan',
  problemTitle: 'Hay un problema',
}
