/**
 * The hosted MCP endpoint: Streamable HTTP at `/mcp`, stateless (a fresh server per POST, JSON
 * replies, no sessions to keep), authenticated by the gate like any API call (any valid key,
 * no scope). Each tool call runs through the whole app in-process with the caller's own key, so
 * scopes, plan checks and the per-key limit apply to it exactly as to a direct API request.
 */
import { Elysia } from 'elysia'
import { access } from '../plugins/access'
import { clientIp } from '../lib/client-ip'
import { inProcessClient } from './client'
import { countBatch } from './guard'
import type { Config } from '../config'
import type { RateLimiter } from '../db/rate-limiter'

/**
 * What /mcp reaches besides `ctx`: the proxy setting (the client's
 * address) and the per-key limiter a batch counts against.
 */
export interface McpPort {
  config: Config
  limiter: Pick<RateLimiter, 'hit'>
}

const notAllowed = () =>
  new Response(
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless, use POST' },
      id: null,
    }),
    {
      status: 405,
      headers: { 'content-type': 'application/json', allow: 'POST' },
    },
  )

const ANY_KEY = { key: 'any' } as const

/**
 * The MCP SDK and the tool list, loaded at the first call rather than at start: they add ~10 MB
 * of resident memory that a store no assistant talks to never needs (bench/memory.ts).
 */
let loading:
  | Promise<[typeof import('./server'), typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]>
  | undefined
const mcpParts = () =>
  (loading ??= Promise.all([
    import('./server'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  ]))

/** `handle` is the app's own `handle`, given late because the app includes this plugin. */
export const mcpRoutes = (port: McpPort, handle: (req: Request) => Promise<Response>) =>
  new Elysia({ name: 'mcp' })
    .use(access)
    .post(
      '/mcp',
      async ({ ctx, request, body, server: bun, set }) => {
        countBatch(port, ctx, body, set.headers as Record<string, string>)
        const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await mcpParts()
        const server = createMcpServer(inProcessClient(handle, request, clientIp(request, bun, port.config.trustProxy)))
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        })
        await server.connect(transport)
        try {
          // The app has already read the body (its 1 MiB limit applies); hand the parsed JSON over.
          return await transport.handleRequest(request, { parsedBody: body })
        } finally {
          await server.close()
        }
      },
      // MCP is not part of the REST contract, so it stays out of the OpenAPI document.
      { access: ANY_KEY, detail: { hide: true } },
    )
    .get('/mcp', notAllowed, { access: ANY_KEY, detail: { hide: true } })
    .delete('/mcp', notAllowed, { access: ANY_KEY, detail: { hide: true } })
