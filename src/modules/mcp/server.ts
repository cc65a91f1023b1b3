import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import type { FastifyBaseLogger } from 'fastify'
import type { Scope } from '../../platform/db/schema.js'
import type { ProblemBody } from '../../platform/http/errors.js'
import { fieldProblems } from '../../platform/http/schema-errors.js'
import { jsonValidator } from '../../platform/http/validation.js'
import { SERVICE_VERSION } from '../../platform/version.js'
import { TOOLS, v1Request, type Arguments, type ToolDefinition } from './tools.js'
import type { V1Calls } from './v1-calls.js'

const INSTRUCTIONS = [
  'The organization\u2019s design asset library: images with a title, asset type, client, product and tags, grouped in collections.',
  'Find assets with search_assets (words and meaning) or list_assets (filters, newest first); look at one with get_asset, which shows its thumbnail.',
  'Bring frames or components in from a Figma link with import_from_figma (it uses the organization\u2019s stored Figma token), and follow the import with get_import.',
  'Every call acts with the API key the client connected with, under the same limits as the REST API; a key with the assets:read scope sees only the read tools.',
].join(' ')

const TOOLS_BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]))

/**
 * The low-level SDK `Server`, not `McpServer`: the tools' schemas are the REST endpoints' own JSON
 * Schemas (TypeBox), where `McpServer` wants zod, and they are checked by the REST API's own validator.
 * One per HTTP request (the transport is stateless), for one caller: it lists the tools the caller's
 * scope may call and runs each through `v1`, the caller's in-process door to the REST API.
 */
export function mcpServer(scope: Scope, v1: V1Calls, log: FastifyBaseLogger): Server {
  const server = new Server({ name: 'asset-library', title: 'Asset Library', version: SERVICE_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS })
  const visible = TOOLS.filter((tool) => scope === 'assets:write' || tool.scope === scope).map(listing)
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: visible }))
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const tool = TOOLS_BY_NAME.get(params.name)
    if (!tool) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}. tools/list names the tools this key may call.`)
    try {
      return await callTool(tool, params.arguments ?? {}, v1)
    } catch (error) {
      log.error({ err: error, tool: tool.name }, 'an MCP tool failed unexpectedly')
      return toolError('The tool failed unexpectedly on the server; the error is logged with this request\u2019s id. Try again later.')
    }
  })
  return server
}

/**
 * A JSON-RPC error the SDK answers with its code and message as they are. Not the SDK's `McpError`,
 * whose message starts "MCP error <code>: ", to which the client's `McpError` adds its own prefix again.
 */
class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

function listing(tool: ToolDefinition): Tool {
  const { name, title, description, annotations, inputSchema, outputSchema } = tool
  return { name, title, description, annotations, inputSchema: { ...inputSchema }, outputSchema: { ...outputSchema } }
}

async function callTool(tool: ToolDefinition, args: Arguments, v1: V1Calls): Promise<CallToolResult> {
  const refused = argumentsProblem(tool, args)
  if (refused) return toolError(refused)
  const answer = await v1.call(v1Request(tool, args))
  if (!answer.ok) return toolError(problemText(answer.problem, tool))
  const { structured, media = [] } = await tool.answer(answer.body, v1, args)
  return { content: [{ type: 'text', text: JSON.stringify(structured) }, ...media], structuredContent: structured }
}

const ARGUMENT_CHECKS = new Map(TOOLS.map((tool) => [tool.name, jsonValidator(tool.inputSchema)]))

/**
 * The arguments against the tool's own input schema, as JSON: a GET endpoint reads its query as text
 * and coerces it, so `{"a": 1}` or null would reach it as a string and pass; and an argument beside a
 * path argument would not reach it at all. The endpoint then judges what a schema cannot (the catalogue,
 * the organization's objects).
 */
function argumentsProblem(tool: ToolDefinition, args: Arguments): string | undefined {
  const check = ARGUMENT_CHECKS.get(tool.name)!
  if (check(args)) return undefined
  const known = Object.keys(tool.inputSchema.properties)
  const problems = fieldProblems(check.errors ?? []).map(({ pointer, detail }) => `- ${argumentAt(pointer, tool)}: ${detail}`)
  return [`Invalid arguments for ${tool.name} (it takes ${known.join(', ')}):`, ...problems].join('\n')
}

/** The problem as a model reads it: what went wrong, then each argument at fault under its own name. */
function problemText(problem: ProblemBody, tool: ToolDefinition): string {
  const detail = tool.problemDetails?.[problem.code] ?? problem.detail
  const head = `${problem.title} (${problem.status} ${problem.code})${detail ? `: ${detail}` : ''}`
  const fields = (problem.errors ?? []).map(({ pointer, detail }) => `- ${argumentAt(pointer, tool)}: ${detail}`)
  return [head, ...fields].join('\n')
}

/** `/query/limit` of a GET endpoint is `limit`, `/params/id` the tool's path argument, `/tag_names/0` is `tag_names/0`. */
function argumentAt(pointer: string, tool: ToolDefinition): string {
  if (pointer.startsWith('/params/')) return tool.pathArgument ?? pointer
  const inQuery = tool.endpoint.startsWith('GET ') && pointer.startsWith('/query/')
  const name = pointer.slice(inQuery ? '/query/'.length : 1)
  return name === '' ? 'arguments' : name
}

function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] }
}
