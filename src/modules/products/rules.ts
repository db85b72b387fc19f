/**
 * A product's rules that its schema can't state, over whichever fields are there: amounts with no
 * more decimals than the currency has, and a compare-at price above the price. A form checks
 * them beside the schema's faults (lib/check-body.ts `checkAll`) so every fault shows at once;
 * the verbs apply the same rules as they write (service.ts).
 */
import { ValidationError } from '../../lib/errors'
import { faultsIn } from '../../lib/faults'
import { minorDigits, toMinor } from '../../lib/money'

export function productFaults(
  currency: string,
  input: { price?: unknown; comparePrice?: unknown; variants?: unknown },
): ValidationError[] {
  const { price, comparePrice } = input
  // A form says how many decimals the currency has.
  const amount = (v: unknown, field: string) =>
    faultsIn(() => typeof v === 'number' && toMinor(v, currency, field)).map((f) =>
      f.details?.reason === 'invalid_format'
        ? new ValidationError(field, 'invalid_format', f.message, { decimals: minorDigits(currency) })
        : f,
    )
  const faults = [...amount(price, 'price'), ...amount(comparePrice, 'comparePrice')]
  if (faults.length === 0 && typeof price === 'number' && typeof comparePrice === 'number' && comparePrice <= price)
    faults.push(
      new ValidationError('comparePrice', 'out_of_range', "'comparePrice' must be greater than 'price' (or null)"),
    )
  if (Array.isArray(input.variants))
    input.variants.forEach((v: { price?: unknown }, i) => faults.push(...amount(v?.price, `variants[${i}].price`)))
  return faults
}
