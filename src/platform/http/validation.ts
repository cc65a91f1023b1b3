import { Ajv, type Options, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifyInstance } from 'fastify'
import { escapePointer } from './errors.js'
import { withReadableUnions, type Validator } from './schema-errors.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

const shared: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false }

/** ajv-formats also takes `urn:uuid:…`, which PostgreSQL refuses: only the plain form is an id. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * URL parts arrive as strings and need coercion; JSON bodies must not be coerced
 * (`null` would quietly become `""`, `"1"` would pass as a number). Unknown fields are rejected, never stripped.
 * An integer in the URL is written in decimal digits (see `withDecimalIntegers`).
 */
export function registerValidation(app: FastifyInstance): void {
  const bodies = createAjv({ coerceTypes: false })
  const urlParts = createAjv({ coerceTypes: 'array' })
  for (const schema of Object.values(app.getSchemas())) {
    bodies.addSchema(schema as object)
    urlParts.addSchema(schema as object)
  }
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? compileChecks(bodies, schema) : withDecimalIntegers(compileChecks(urlParts, schema), integerFields(schema)),
  )
}

/** JSON arguments, checked as a body is (types as sent, no defaults filled in): an MCP tool's against its input schema. */
const jsonArguments = createAjv({ coerceTypes: false, useDefaults: false })

/** A validator of JSON values against `schema`, whose errors read as the API's `validation_failed` ones. */
export function jsonValidator(schema: object): Validator {
  return compileChecks(jsonArguments, schema)
}

function compileChecks(ajv: Ajv, schema: object): Validator {
  return withReadableUnions(withoutNul(ajv.compile(schema)), schema, ajv)
}

/** An optional minus and digits: what `limit` or `offset` may be written as. */
const DECIMAL_INTEGER = /^-?\d+$/

/** The top-level fields of a URL part's schema that are integers. */
function integerFields(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {}
  return Object.keys(properties).filter((name) => properties[name]!.type === 'integer')
}

/**
 * Ajv coerces a string to a number when `+text == text`, so `limit=0x10` read as 16, `1e1` as 10 and
 * `Infinity` passed as an integer (then capped): an integer field of the URL must be decimal digits, checked
 * on the text as sent, before coercion.
 */
function withDecimalIntegers(validate: Validator, fields: string[]): Validator {
  if (fields.length === 0) return validate
  const check: Validator = (data) => {
    const values = data as Record<string, unknown>
    const refused = fields.filter((name) => [values[name] ?? []].flat().some((value) => typeof value === 'string' && !DECIMAL_INTEGER.test(value)))
    if (refused.length > 0) {
      check.errors = refused.map((name) => ({ instancePath: `/${name}`, keyword: 'type', message: 'must be an integer in decimal digits', params: {}, schemaPath: '' }))
      return false
    }
    const valid = validate(data)
    check.errors = validate.errors ?? null
    return valid
  }
  return check
}

function createAjv(options: Options): Ajv {
  return addFormats(new Ajv({ ...shared, ...options })).addFormat('uuid', UUID)
}

/** PostgreSQL text cannot hold U+0000: refused here as a field problem instead of failing in the database. */
function withoutNul(validate: ValidateFunction): Validator {
  const check: Validator = (data) => {
    if (!validate(data)) {
      check.errors = validate.errors ?? null
      return false
    }
    const path = nulPath(data, '')
    check.errors = path === null ? null : [{ instancePath: path, keyword: 'nul', message: 'must not contain NUL characters', params: {}, schemaPath: '' }]
    return path === null
  }
  return check
}

function nulPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null
  if (value === null || typeof value !== 'object') return null
  for (const [key, item] of Object.entries(value)) {
    const found = nulPath(item, `${path}/${escapePointer(key)}`)
    if (found !== null) return found
  }
  return null
}
