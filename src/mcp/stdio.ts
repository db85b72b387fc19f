/**
 * `bun run mcp`: the MCP server on stdio, calling the API over HTTPS. Settings are checked before
 * serving, so a missing key or unreadable CA file stops the start (exit 2) with a message on
 * stderr instead of failing at the first tool call. stdout belongs to the protocol.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { httpClient, loadSettings, SettingsError } from './client'
import { createMcpServer } from './server'

let settings
try {
  settings = loadSettings()
} catch (err) {
  if (err instanceof SettingsError) {
    console.error(err.message)
    process.exit(2)
  }
  throw err
}

const server = createMcpServer(httpClient(settings))
const transport = new StdioServerTransport()
server.onclose = () => process.exit(0)
// The client closing our stdin is the end of the session.
process.stdin.on('end', () => process.exit(0))
await server.connect(transport)
console.error(`storefront MCP server ready (stdio) → ${settings.url}`)
