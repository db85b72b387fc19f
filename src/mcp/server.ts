/**
 * The MCP server both transports share: lists the 34 tools and runs a call through the executor.
 *
 * The low-level `Server` rather than `McpServer.registerTool`: the tools carry JSON Schema built
 * from the API's own TypeBox request schemas, which `registerTool` would need re-expressed in
 * zod; the API validates every call anyway and its 400 reaches the model as a tool error.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import pkg from '../../package.json' with { type: 'json' }
import type { ApiClient } from './client'
import { executeTool } from './execute'
import { TOOLS, TOOLS_BY_NAME } from './tools'

const INSTRUCTIONS =
  'Tools for one Storefront store (the API key decides which). Money is in major units of the store currency. ' +
  'Errors come back as tool errors with the API code: UNAUTHORIZED (bad key), FORBIDDEN (missing scope), ' +
  'PLAN_REQUIRED (needs Pro), ' +
  'NOT_FOUND, VALIDATION_ERROR (details.field names the input), ' +
  'DUPLICATE_SLUG / DUPLICATE_CODE / DUPLICATE_ORDER / INVALID_STATUS_TRANSITION (409), ' +
  'RATE_LIMIT_EXCEEDED (retryAfter seconds; 100 calls per minute per key).'

export const MCP_TOOLS: Tool[] = TOOLS.map((d) => ({
  name: d.name,
  title: d.annotations.title,
  description: d.description,
  inputSchema: d.inputSchema,
  annotations: d.annotations,
}))

export function createMcpServer(call: ApiClient): Server {
  const server = new Server(
    { name: 'storefront', title: 'Storefront API', version: pkg.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: MCP_TOOLS }))
  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const def = TOOLS_BY_NAME.get(req.params.name)
    if (!def) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`)
    return executeTool(def, req.params.arguments, call)
  })
  return server
}
