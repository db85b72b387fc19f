/** What `bun run demo` prints once the server listens: the panel's link first, then the API's lines. */
import type { DemoSeed } from './demo-seed'
import { DEMO_OWNER_EMAIL } from './demo-catalog'
import { panelLinkLines } from './panel-links'

/**
 * The lines printed once the server listens. `lan`: the origins a phone on the same Wi-Fi can
 * use (cli/panel-links.ts); the panel's one-time link comes first, with those and a QR code.
 * `logFile`: where the request log goes instead of the terminal.
 */
export function demoInstructions(
  seed: DemoSeed,
  url: string,
  certFile: string | undefined,
  opts: { lan?: string[]; logFile?: string } = {},
): string {
  const ca = certFile ? `--cacert ${certFile} ` : ''
  const order = JSON.stringify({
    storeId: seed.store.id,
    name: 'Ada Lovelace',
    phone: '+14155550199',
    address: '12 Example Street, Springfield',
    items: [{ variantId: seed.exampleVariantId, quantity: 2 }],
    shippingOptionId: seed.shippingOptionId,
  })
  const panel = panelLinkLines(
    {
      label: `Seller panel: sign in as ${DEMO_OWNER_EMAIL} with this one-time link (72 h; a new one each run)`,
      path: `/admin/join?token=${seed.signInToken}`,
    },
    url,
    opts.lan ?? [],
  )
  return [
    '',
    panel,
    `Demo store '${seed.store.slug}' ${seed.created ? 'created' : 'reused'} (id ${seed.store.id}, ` +
      `plan ${seed.store.plan}, ${seed.store.currency}); ${seed.productIds.length} products, ` +
      `discount code ${seed.discountCode}.`,
    `API key (all scopes, shown once; earlier demo keys were revoked):`,
    `  export KEY=${seed.key}`,
    '',
    'List products:',
    `  curl ${ca}-H "Authorization: Bearer $KEY" ${url}/api/v1/products`,
    '',
    'Place a public order (no key):',
    `  curl ${ca}-X POST ${url}/api/orders -H 'content-type: application/json' -d '${order}'`,
    '',
    'Storefront (open it in a browser and place an ' +
      `order${certFile ? '; the certificate is self-signed, so the browser asks once' : ''}):`,
    `  ${url}/s/${seed.store.slug}`,
    '',
    `API docs: ${url}/docs    Request log: ${opts.logFile ?? 'stderr'}    Stop with Ctrl-C.`,
    '',
  ].join('\n')
}
