/** A wrk script posting a fresh order per request (the phone counts up from `base`: none is a duplicate). */
export function checkoutScript(storeId: string, variantId: string, base: number): string {
  const head = `{"storeId":"${storeId}","name":"Bench Buyer","address":"1 Main St","phone":"`
  const tail = `","items":[{"variantId":"${variantId}","quantity":1}]}`
  return `
local n = 0
request = function()
  n = n + 1
  local phone = string.format("+1415%07d", 2000000 + ((${base} + n) % 7000000))
  return wrk.format("POST", "/api/orders", { ["content-type"] = "application/json" }, '${head}' .. phone .. '${tail}')
end
`
}
