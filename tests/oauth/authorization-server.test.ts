/**
 * The authorization server's MUSTs, over HTTP against a real SQLite file: the metadata documents
 * (RFC 8414, RFC 9728), /mcp's 401 challenge, public-client registration and its redirect-URI
 * rules and per-IP limit (RFC 7591), the authorization request with PKCE S256 only (RFC 7636),
 * refused to the person's face when it breaks a rule (RFC 6749 §4.1.2.1), the code grant (single
 * use, 60 s, bound to client, redirect_uri and verifier; a reused code revokes what it issued:
 * §4.1.2, §10.5), refresh rotation with family revocation (OAuth 2.1), resource binding
 * (RFC 8707) and revocation (RFC 7009).
 */
import { describe, expect, test } from 'bun:test'
import { SCOPES } from '../../src/lib/scopes'
import { fixedClock } from '../../src/lib/time'
import { oauthCodes, oauthGrants, oauthTokens } from '../../src/db/schema'
import { appForFile, expectStatus, makeApp } from '../helpers/app'
import { PanelClient, signedInOwner } from '../helpers/panel'
import { SoftAuthenticator } from '../helpers/webauthn'
import { totpCodeAt } from '../../src/modules/people'
import {
  answerConsent,
  authorizeQuery,
  callTool,
  connect,
  mcpRpc,
  pkce,
  REDIRECT,
  register,
  registeredClient,
  token,
} from '../helpers/oauth'

const t = appForFile()

describe('discovery', () => {
  test('/mcp without a credential: 401 naming the protected-resource metadata (RFC 9728 §5.1)', async () => {
    const [res] = await mcpRpc(t, undefined, 'tools/list')
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource"',
    )
    const [bad] = await mcpRpc(t, 'sfat_not-a-token', 'tools/list')
    expect(bad.status).toBe(401)
    expect(bad.headers.get('www-authenticate')).toContain('resource_metadata=')
  })

  test('protected-resource metadata: the resource, its authorization server, the scopes', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const [res, body] = await t.api.get(path)
      expectStatus(res, body).toBe(200)
      expect(body).toMatchObject({
        resource: 'http://localhost/mcp',
        authorization_servers: ['http://localhost'],
        scopes_supported: [...SCOPES],
      })
    }
  })

  test('authorization-server metadata (RFC 8414): issuer is the origin, every endpoint absolute on it', async () => {
    const [res, body] = await t.api.get('/.well-known/oauth-authorization-server')
    expectStatus(res, body).toBe(200)
    expect(body).toMatchObject({
      issuer: 'http://localhost',
      authorization_endpoint: 'http://localhost/oauth/authorize',
      token_endpoint: 'http://localhost/oauth/token',
      registration_endpoint: 'http://localhost/oauth/register',
      revocation_endpoint: 'http://localhost/oauth/revoke',
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      token_endpoint_auth_methods_supported: ['none'],
      scopes_supported: [...SCOPES],
    })
  })

  test('a browser-based assistant may read them: CORS for any origin, preflights answered', async () => {
    const [res] = await t.api.get('/.well-known/oauth-authorization-server', {
      headers: { origin: 'https://claude.ai' },
    })
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    for (const path of ['/.well-known/oauth-protected-resource', '/oauth/register', '/oauth/token']) {
      const pre = await t.app.handle(
        new Request(`http://localhost${path}`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://claude.ai',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type, mcp-protocol-version',
          },
        }),
      )
      expect({ path, status: pre.status }).toEqual({ path, status: 204 })
      expect(pre.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version')
    }
  })
})

describe('registration (RFC 7591)', () => {
  test('a public client with loopback and https redirect URIs: 201, no secret', async () => {
    const uris = ['http://127.0.0.1/cb', 'http://localhost:33418/cb', 'http://[::1]:9/cb', 'https://claude.ai/cb']
    const [res, body] = await register(t, { client_name: 'Claude', redirect_uris: uris })
    expectStatus(res, body).toBe(201)
    expect(body).toMatchObject({ client_name: 'Claude', redirect_uris: uris, token_endpoint_auth_method: 'none' })
    expect(typeof body.client_id).toBe('string')
    expect(body.client_secret).toBeUndefined()
  })

  test('redirect URIs that are not https or loopback are refused, naming the URI', async () => {
    for (const uri of ['http://evil.example/cb', 'javascript:alert(1)', 'https://x.example/cb#frag', 'not a url']) {
      const [res, body] = await register(t, { client_name: 'X', redirect_uris: [uri] })
      expectStatus(res, body).toBe(400)
      expect(body.error).toBe('invalid_redirect_uri')
    }
    const [none, noneBody] = await register(t, { client_name: 'X' })
    expectStatus(none, noneBody).toBe(400)
    const [secret, secretBody] = await register(t, {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
    })
    expectStatus(secret, secretBody).toBe(400)
    expect(secretBody.error).toBe('invalid_client_metadata')
  })

  test('20 registrations an hour per IP, then 429 with Retry-After', async () => {
    using own = makeApp()
    for (let i = 0; i < 20; i++) {
      const [res, body] = await register(own)
      expectStatus(res, body).toBe(201)
    }
    const [res, body] = await register(own)
    expectStatus(res, body).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('authorization request', () => {
  test('signed out: the panel sign-in first, which comes back to the same request', async () => {
    const { b, email } = await signedInOwner(t)
    await b.submitFrom('/admin/account', '/admin/logout')
    const clientId = await registeredClient(t)
    const query = authorizeQuery(clientId, pkce().challenge)
    const first = await b.get(`/oauth/authorize?${query}`)
    expect(first.status).toBe(303)
    const login = first.location!
    expect(login).toBe(`/admin/login?next=${encodeURIComponent(`/oauth/authorize?${query}`)}`)
    await b.get(login)
    const next = /name="next" value="([^"]+)"/.exec(b.last!.text)![1]!.replace(/&amp;/g, '&')
    const signed = await b.submit('/admin/login', { email, password: 'correct horse battery staple', next })
    expect(signed.status).toBe(303)
    expect(signed.location).toBe(`/oauth/authorize?${query}`)
    const consent = await b.get(signed.location!)
    expect(consent.status).toBe(200)
    expect(consent.text).toContain('Connect Claude?')
  })

  test('signing in with two-step on the way comes back to the request too', async () => {
    const { b, email } = await signedInOwner(t)
    const setup = await b.submitFrom('/admin/account', '/admin/account/two-step')
    const secret = /<code id="totp-secret" class="secret">([A-Z2-7]+)<\/code>/.exec(setup.text)![1]!
    await b.submit('/admin/account/two-step/confirm', { code: totpCodeAt(secret, t.clock.now()) })
    const query = authorizeQuery(await registeredClient(t), pkce().challenge)
    const c = new PanelClient((r) => t.app.handle(r))
    const login = (await c.get(`/oauth/authorize?${query}`)).location!
    await c.get(login)
    const next = decodeURIComponent(login.split('next=')[1]!)
    const step1 = await c.submit('/admin/login', { email, password: 'correct horse battery staple', next })
    expect(step1.location).toBe(`/admin/login/two-step?next=${encodeURIComponent(next)}`)
    const hiddenNext = () => /name="next" value="([^"]+)"/.exec(c.last!.text)![1]!.replace(/&amp;/g, '&')
    await c.get(step1.location!)
    expect(hiddenNext()).toBe(next)
    // A wrong code keeps the way back; the right one (the next 30-second step) takes it.
    const wrong = await c.submit('/admin/login/two-step', { code: '000000', next: hiddenNext() })
    expect(wrong.status).toBe(401)
    const signed = await c.submit('/admin/login/two-step', {
      code: totpCodeAt(secret, t.clock.now() + 30_000),
      next: hiddenNext(),
    })
    expect(signed.location).toBe(`/oauth/authorize?${query}`)
    expect((await c.get(signed.location!)).text).toContain('Connect Claude?')
  })

  test('signing in with a passkey on the way comes back to the request too', async () => {
    const { b } = await signedInOwner(t)
    await b.get('/admin/account')
    const formToken = b.formToken()
    const opts = await b.postJson('/admin/account/passkeys/options', {}, { token: formToken })
    const auth = new SoftAuthenticator('localhost', 'http://localhost')
    await b.postJson('/admin/account/passkeys', { response: auth.register(opts.json.options) }, { token: formToken })
    const query = authorizeQuery(await registeredClient(t), pkce().challenge)
    const c = new PanelClient((r) => t.app.handle(r))
    const first = await c.get(`/oauth/authorize?${query}`)
    const next = decodeURIComponent(first.location!.split('next=')[1]!)
    const options = await c.postJson('/admin/login/passkey/options', {})
    const signed = await c.postJson('/admin/login/passkey', { response: auth.assert(options.json.options), next })
    expect(signed.json).toEqual({ ok: true, next: `/oauth/authorize?${query}` })
    expect((await c.get(signed.json.next)).status).toBe(200)
    // A next elsewhere is ignored.
    const d = new PanelClient((r) => t.app.handle(r))
    const again = await d.postJson('/admin/login/passkey/options', {})
    const elsewhere = await d.postJson('/admin/login/passkey', {
      response: auth.assert(again.json.options),
      next: 'https://evil.example/',
    })
    expect(elsewhere.json.next).toBe('/admin')
  })

  test('a request that breaks a rule is a 400 page, issues no code and never redirects', async () => {
    const { b } = await signedInOwner(t)
    const clientId = await registeredClient(t)
    const { challenge } = pkce()
    const cases: [string, string][] = [
      [authorizeQuery(clientId, challenge, {}, ['code_challenge', 'code_challenge_method']), 'PKCE'],
      [authorizeQuery(clientId, challenge, { code_challenge_method: 'plain' }), 'PKCE'],
      [authorizeQuery(clientId, challenge, {}, ['code_challenge_method']), 'PKCE'],
      [authorizeQuery('no-such-client', challenge), 'not registered'],
      [authorizeQuery(clientId, challenge, { redirect_uri: 'https://attacker.example/cb' }), 'did not register'],
      [authorizeQuery(clientId, challenge, { redirect_uri: 'http://127.0.0.1:8976/other' }), 'did not register'],
      [authorizeQuery(clientId, challenge, { response_type: 'token' }), 'sign-in code'],
      [authorizeQuery(clientId, challenge, { resource: 'https://elsewhere.example/mcp' }), 'something other'],
      [authorizeQuery(clientId, challenge, { scope: 'products:read admin' }), 'permissions'],
    ]
    const codesBefore = t.deps.db.select().from(oauthCodes).all().length
    for (const [query, words] of cases) {
      const page = await b.get(`/oauth/authorize?${query}`)
      expect({ query, status: page.status, location: page.location }).toEqual({ query, status: 400, location: null })
      expect(page.text).toContain(words)
      // The POST of a forged consent form is refused the same way.
      const fields = Object.fromEntries(new URLSearchParams(query))
      const posted = await b.submitFrom('/admin/account', '/oauth/authorize', {
        ...fields,
        decision: 'allow',
        store: 'x',
      })
      expect(posted.status).toBe(400)
    }
    expect(t.deps.db.select().from(oauthCodes).all().length).toBe(codesBefore)
  })

  test('a loopback redirect URI may come back on another port (RFC 8252 §7.3)', async () => {
    const { b } = await signedInOwner(t)
    const clientId = await registeredClient(t)
    const back = await answerConsent(
      b,
      authorizeQuery(clientId, pkce().challenge, { redirect_uri: 'http://127.0.0.1:51234/callback' }),
    )
    expect(back.origin).toBe('http://127.0.0.1:51234')
    expect(back.searchParams.get('code')).toBeTruthy()
  })

  test('Deny → access_denied with the state, and no code', async () => {
    const { b } = await signedInOwner(t)
    const clientId = await registeredClient(t)
    const back = await answerConsent(b, authorizeQuery(clientId, pkce().challenge), { decision: 'deny' })
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT)
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('state')).toBe('st-1')
    expect(back.searchParams.get('code')).toBeNull()
  })

  test('Allow → code and state on the registered redirect URI', async () => {
    const { b } = await signedInOwner(t)
    const clientId = await registeredClient(t)
    const back = await answerConsent(b, authorizeQuery(clientId, pkce().challenge))
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT)
    expect(back.searchParams.get('state')).toBe('st-1')
    expect(back.searchParams.get('code')).toMatch(/^sfac_/)
  })
})

describe('token endpoint', () => {
  test('the code grant: bearer tokens of 1 hour, opaque, stored only hashed', async () => {
    const { b } = await signedInOwner(t)
    const c = await connect(t, b)
    expect(c.access).toMatch(/^sfat_[A-Za-z0-9_-]{43}$/)
    expect(c.refresh).toMatch(/^sfrt_/)
    const rows = t.deps.db.select().from(oauthTokens).all()
    expect(rows.some((r) => r.hash === c.access || r.hash === c.refresh)).toBe(false)
    expect(rows.some((r) => r.hash === new Bun.CryptoHasher('sha256').update(c.access).digest('hex'))).toBe(true)
  })

  test('a code is bound to its client, redirect_uri and verifier, and gets one try', async () => {
    const { b } = await signedInOwner(t)
    const otherClient = await registeredClient(t)
    for (const wrong of [
      { client_id: otherClient },
      { redirect_uri: 'http://127.0.0.1:8976/other' },
      { code_verifier: pkce().verifier },
      { code_verifier: undefined },
    ]) {
      const clientId = await registeredClient(t)
      const { verifier, challenge } = pkce()
      const code = (await answerConsent(b, authorizeQuery(clientId, challenge))).searchParams.get('code')!
      const fields: Record<string, string | undefined> = {
        grant_type: 'authorization_code',
        code,
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        ...wrong,
      }
      const sent = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<
        string,
        string
      >
      const [res, body] = await token(t, sent)
      expectStatus(res, body).toBe(400)
      expect(body.error).toBe('invalid_grant')
      // The right values afterwards: the code was spent by the failed try.
      const [again, againBody] = await token(t, {
        grant_type: 'authorization_code',
        code,
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      })
      expectStatus(again, againBody).toBe(400)
    }
  })

  test('a reused code is refused and revokes the tokens it issued', async () => {
    const { b } = await signedInOwner(t)
    const c = await connect(t, b)
    const [ok] = await callTool(t, c.access, 'get_store')
    expect(ok.status).toBe(200)
    const [res, body] = await token(t, {
      grant_type: 'authorization_code',
      code: c.code,
      client_id: c.clientId,
      redirect_uri: REDIRECT,
      code_verifier: c.verifier,
    })
    expectStatus(res, body).toBe(400)
    expect(body.error).toBe('invalid_grant')
    const [after] = await callTool(t, c.access, 'get_store')
    expect(after.status).toBe(401)
    const [refreshed, refreshBody] = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: c.refresh,
      client_id: c.clientId,
    })
    expectStatus(refreshed, refreshBody).toBe(400)
  })

  test('a code lives 60 seconds; an access token one hour', async () => {
    const clock = fixedClock(Date.now())
    using own = makeApp({}, { clock })
    const { b } = await signedInOwner(own)
    const clientId = await registeredClient(own)
    const { verifier, challenge } = pkce()
    const code = (await answerConsent(b, authorizeQuery(clientId, challenge))).searchParams.get('code')!
    clock.advance(61_000)
    const exchange = { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: REDIRECT }
    const [late, lateBody] = await token(own, { ...exchange, code_verifier: verifier })
    expectStatus(late, lateBody).toBe(400)
    expect(lateBody.error_description).toContain('expired')

    const c = await connect(own, b)
    clock.advance(3_599_000)
    expect((await callTool(own, c.access, 'get_store'))[0].status).toBe(200)
    clock.advance(2_000)
    expect((await callTool(own, c.access, 'get_store'))[0].status).toBe(401)
  })

  test('refresh tokens rotate; a reused one revokes the whole family', async () => {
    const { b } = await signedInOwner(t)
    const c = await connect(t, b)
    const [res, first] = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: c.refresh,
      client_id: c.clientId,
    })
    expectStatus(res, first).toBe(200)
    expect(first.refresh_token).not.toBe(c.refresh)
    expect((await callTool(t, first.access_token, 'get_store'))[0].status).toBe(200)
    // The old refresh token again: refused, and every token of the grant stops.
    const [reused, reusedBody] = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: c.refresh,
      client_id: c.clientId,
    })
    expectStatus(reused, reusedBody).toBe(400)
    expect(reusedBody.error).toBe('invalid_grant')
    expect((await callTool(t, first.access_token, 'get_store'))[0].status).toBe(401)
    expect((await callTool(t, c.access, 'get_store'))[0].status).toBe(401)
    const [next] = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: c.clientId,
    })
    expect(next.status).toBe(400)
  })

  test('a refresh token belongs to its client; unknown grant types are refused', async () => {
    const { b } = await signedInOwner(t)
    const c = await connect(t, b)
    const other = await registeredClient(t)
    const [res, body] = await token(t, { grant_type: 'refresh_token', refresh_token: c.refresh, client_id: other })
    expectStatus(res, body).toBe(400)
    const [grant, grantBody] = await token(t, { grant_type: 'password', username: 'a', password: 'b' })
    expectStatus(grant, grantBody).toBe(400)
    expect(grantBody.error).toBe('unsupported_grant_type')
    // The right client still refreshes: the wrong one spent nothing.
    const [ok, okBody] = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: c.refresh,
      client_id: c.clientId,
    })
    expectStatus(ok, okBody).toBe(200)
  })

  test('tokens are for <origin>/mcp only (RFC 8707): another resource is refused, and another origin', async () => {
    const { b } = await signedInOwner(t)
    const c = await connect(t, b)
    const [res, body] = await token(t, {
      grant_type: 'refresh_token',
      refresh_token: c.refresh,
      client_id: c.clientId,
      resource: 'https://elsewhere.example/mcp',
    })
    expectStatus(res, body).toBe(400)
    expect(body.error).toBe('invalid_target')
    // The same token presented at this service under another name is not for that resource.
    const elsewhere = await t.app.handle(
      new Request('http://other-name.example/mcp', {
        method: 'POST',
        headers: {
          host: 'other-name.example',
          authorization: `Bearer ${c.access}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      }),
    )
    expect(elsewhere.status).toBe(401)
  })

  test('revocation (RFC 7009): 200 for any token; a known one stops its grant', async () => {
    const { b } = await signedInOwner(t)
    const c = await connect(t, b)
    const revoke = (fields: Record<string, string>) =>
      t.api.call('POST', '/oauth/revoke', undefined, {
        raw: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    const [unknown] = await revoke({ token: 'nothing', client_id: c.clientId })
    expect(unknown.status).toBe(200)
    const [other] = await revoke({ token: c.access, client_id: await registeredClient(t) })
    expect(other.status).toBe(200)
    expect((await callTool(t, c.access, 'get_store'))[0].status).toBe(200)
    const [mine] = await revoke({ token: c.refresh, client_id: c.clientId })
    expect(mine.status).toBe(200)
    expect((await callTool(t, c.access, 'get_store'))[0].status).toBe(401)
    const grant = t.deps.db
      .select()
      .from(oauthGrants)
      .all()
      .find((g) => g.revokedAt !== null)
    expect(grant).toBeDefined()
  })
})
