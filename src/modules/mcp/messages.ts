import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { MAX_JSON_DEPTH, tooDeeplyNested } from '../../platform/http/json-body.js'

/** The SDK's schema of each request the server answers; it answers any other method "Method not found". */
const REQUESTS = new Map(
  [InitializeRequestSchema, PingRequestSchema, ListToolsRequestSchema, CallToolRequestSchema].map((schema) => [schema.shape.method.value as string, schema]),
)

/** A JSON-RPC error answer; its id is null when the message had none to answer (JSON-RPC 2.0, 5). */
export interface ErrorAnswer {
  jsonrpc: '2.0'
  id: string | number | null
  error: { code: number; message: string }
}

/** A POST's JSON-RPC messages once screened: those refused here, answered, and the body the transport gets. */
export interface ScreenedMessages {
  /** The messages not refused, as the body was sent: one message, or a batch (an empty one when all were refused). */
  forward: unknown
  refused: ErrorAnswer[]
  batch: boolean
}

/**
 * Checks each request's params before the SDK sees them. The SDK parses a request's params against its
 * schema inside the handler it registers, and answers a failure as -32603 "Internal error" with the
 * zod issues as the message (and `params: null` as a parse error, from its transport): here they are
 * -32602 "Invalid params" with one sentence. A message nested deeper than the service reads any JSON is
 * refused first, before anything walks it. Undefined when the body is not JSON: the transport answers
 * its parse error.
 */
export function screenMessages(body: string): ScreenedMessages | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return undefined
  }
  const batch = Array.isArray(parsed)
  const refused: ErrorAnswer[] = []
  const kept: unknown[] = []
  for (const message of batch ? (parsed as unknown[]) : [parsed]) {
    const problem = paramsProblem(message)
    if (problem === undefined) kept.push(message)
    else refused.push({ jsonrpc: '2.0', id: requestId(message), error: { code: ErrorCode.InvalidParams, message: problem } })
  }
  return { forward: batch ? kept : (kept[0] ?? []), refused, batch }
}

type Message = Record<string, unknown>

function paramsProblem(message: unknown): string | undefined {
  if (tooDeeplyNested(message) !== undefined) return `Invalid params: the message nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`
  if (!isRequest(message)) return undefined
  const { method, params } = message
  if ('params' in message && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    return `Invalid params for ${method}: \`params\` must be an object, not ${kindOf(params)}.`
  }
  const schema = REQUESTS.get(method)
  const issue = schema?.safeParse(message).error?.issues[0]
  if (!issue) return undefined
  const path = issue.path.slice(issue.path[0] === 'params' && issue.path.length > 1 ? 1 : 0).join('.')
  const value = issue.path.reduce<unknown>((parent, key) => (parent as Message | undefined)?.[key as string], message)
  if (value === undefined) return `Invalid params for ${method}: \`${path}\` is required.`
  if (issue.code === 'invalid_type') return `Invalid params for ${method}: \`${path}\` must be ${EXPECTED[issue.expected] ?? issue.expected}, not ${kindOf(value)}.`
  return `Invalid params for ${method}: \`${path}\` ${issue.message.replace(/^Invalid input: /, '').replace(/\s+/g, ' ')}.`
}

const EXPECTED: Record<string, string> = { string: 'a string', number: 'a number', boolean: 'true or false', object: 'an object', record: 'an object', array: 'an array' }

function isRequest(message: unknown): message is Message & { method: string } {
  return typeof message === 'object' && message !== null && typeof (message as Message).method === 'string' && isId((message as Message).id)
}

function isId(id: unknown): id is string | number {
  return typeof id === 'string' || typeof id === 'number'
}

function requestId(message: unknown): string | number | null {
  const id = typeof message === 'object' && message !== null ? (message as Message).id : undefined
  return isId(id) ? id : null
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
