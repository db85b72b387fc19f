/**
 * An assistant connects without a key, driven by the MCP TypeScript SDK's own client auth
 * (`StreamableHTTPClientTransport` with an `authProvider`): the 401's discovery, the metadata,
 * dynamic registration, the consent page opened and answered in Chromium by the store's owner
 * (signing in on the way, coming back through `next`), the token exchange, then `listTools` and a
 * tool call that returns the store's data. Then the Account and Team pages list the app, and
 * Disconnect stops it. The consent, Account and Team pages pass `check(page)` (axe, 390 × 844).
 * Run: `bun test ./e2e/oauth-connect.e2e.ts`.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { eq } from 'drizzle-orm'
import { memberships, users } from '../src/db/schema'
import { createStore } from '../src/modules/platform-stores/service'
import { addProduct } from '../tests/helpers/factories'
import { check, close, open, ownerStore, startHarness, type Harness } from './panel-harness'

const TIMEOUT = 180_000
const PASSWORD = 'a long and quiet passphrase'
const OWNER = 'assistant-owner@example.com'
let h: Harness
let callback: ReturnType<typeof Bun.serve>
const codes: string[] = []

beforeAll(async () => {
  h = await startHarness()
  const { store } = await ownerStore(h, {
    name: 'Assistant Tea',
    slug: 'assistant-tea',
    email: OWNER,
    password: PASSWORD,
  })
  const deps = h.server.running.deps
  addProduct(deps, store.id, { name: 'Oolong Reserve' })
  // The owner also works in a second store, as staff, joined later (so a session opens in the first):
  // the consent page offers a choice.
  const second = createStore({ ctx: deps, input: { name: 'Second Shop', slug: 'second-shop', plan: 'pro' } })
  const owner = deps.db.select().from(users).where(eq(users.email, OWNER)).get()!
  deps.db
    .insert(memberships)
    .values({ storeId: second.id, userId: owner.id, role: 'staff', createdAt: Date.now() + 60_000, updatedAt: 0 })
    .run()
  // The assistant's own loopback listener, where the consent page sends the code.
  callback = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url)
      if (url.pathname !== '/callback') return new Response(null, { status: 204 })
      const code = url.searchParams.get('code')
      if (code) codes.push(code)
      return new Response('<!doctype html><title>Connected</title><p>You can close this window.</p>', {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      })
    },
  })
}, TIMEOUT)
afterAll(async () => {
  callback?.stop(true)
  await h?.close()
})

/** Bun's fetch against the harness's self-signed certificate. */
const insecureFetch = (url: string | URL, init?: RequestInit) =>
  fetch(url, { ...init, tls: { rejectUnauthorized: false } } as RequestInit)

/**
 * What an assistant keeps: its registration, its tokens, the PKCE verifier; it "opens" the consent URL by keeping it.
 */
class AssistantProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed
  saved?: OAuthTokens
  verifier = ''
  authorizationUrl?: URL
  constructor(readonly redirect: string) {}
  get redirectUrl() {
    return this.redirect
  }
  get clientMetadata() {
    return {
      client_name: 'Test Assistant',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(v: string) {
    this.verifier = v
  }
  codeVerifier() {
    return this.verifier
  }
}

const transportFor = (provider: AssistantProvider) =>
  new StreamableHTTPClientTransport(new URL(`${h.origin}/mcp`), { authProvider: provider, fetch: insecureFetch })

test(
  'the SDK connects through discovery, registration, consent in Chromium and the token exchange',
  async () => {
    const provider = new AssistantProvider(`http://127.0.0.1:${callback.port}/callback`)
    const first = new Client({ name: 'assistant', version: '1.0.0' })
    const transport = transportFor(provider)
    // No token yet: the 401 sends the SDK through discovery and registration to the consent URL.
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
    expect(provider.info?.client_id).toBeTruthy()
    const consentUrl = provider.authorizationUrl!
    expect(consentUrl.href.startsWith(`${h.origin}/oauth/authorize?`)).toBe(true)
    expect(consentUrl.searchParams.get('code_challenge_method')).toBe('S256')

    const w = await open(h, { allowOrigins: [`http://127.0.0.1:${callback.port}`] })
    const { page } = w
    // Signed out: the panel's sign-in, then back to the consent page.
    await page.goto(consentUrl.href)
    await page.getByLabel('Email').fill(OWNER)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Connect Test Assistant?' }).waitFor()
    await check(page)
    expect(await page.getByText(`sent back to 127.0.0.1:${callback.port}`).count()).toBe(1)
    // Two stores: a choice (one already chosen), each with what the role there lets the app do.
    const staff = page.getByRole('radio', { name: 'Second Shop · Staff' })
    const owner = page.getByRole('radio', { name: 'Assistant Tea · Owner' })
    expect((await staff.isChecked()) !== (await owner.isChecked())).toBe(true)
    await owner.check()
    const staffScopes = await page.locator(`#${await staff.getAttribute('aria-describedby')}`).textContent()
    expect(staffScopes).toContain('products:write')
    expect(staffScopes).not.toContain('store:write')
    await page.getByRole('button', { name: 'Allow' }).click()
    // The form's CSP allowed the redirect to the assistant's loopback origin.
    await page.waitForURL(`http://127.0.0.1:${callback.port}/callback?**`)
    expect(codes.length).toBe(1)

    await transport.finishAuth(codes[0]!)
    expect(provider.saved?.access_token).toMatch(/^sfat_/)
    const client = new Client({ name: 'assistant', version: '1.0.0' })
    await client.connect(transportFor(provider))
    const tools = await client.listTools()
    expect(tools.tools.length).toBe(34)
    const products = (await client.callTool({ name: 'list_products', arguments: {} })) as {
      isError?: boolean
      content: { text: string }[]
    }
    expect(products.isError).toBeUndefined()
    expect(products.content[0]!.text).toContain('Oolong Reserve')

    // The Account page lists it; the Team page too (an owner's view of the store).
    await page.goto(`${h.origin}/admin/team`)
    await page.getByRole('heading', { level: 2, name: 'Connected apps' }).waitFor()
    await check(page)
    await page.goto(`${h.origin}/admin/account`)
    await page.getByRole('heading', { level: 2, name: 'Connected apps' }).waitFor()
    await check(page)
    await page.getByRole('button', { name: 'Disconnect Test Assistant' }).click()
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor()
    expect(await page.getByRole('button', { name: 'Disconnect Test Assistant' }).count()).toBe(0)
    await check(page)

    // Disconnected: the next call is refused, and the SDK is sent back through authorization.
    provider.authorizationUrl = undefined
    await expect(client.listTools()).rejects.toThrow()
    await client.close()
    await close(w)
  },
  TIMEOUT,
)
