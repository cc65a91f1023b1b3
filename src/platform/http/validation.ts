import { Ajv, type Options } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifyInstance } from 'fastify'

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv

const shared: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false }

/**
 * URL parts arrive as strings and need coercion; JSON bodies must not be coerced
 * (`null` would quietly become `""`, `"1"` would pass as a number). Unknown fields are rejected, never stripped.
 */
export function registerValidation(app: FastifyInstance): void {
  const bodies = addFormats(new Ajv({ ...shared, coerceTypes: false }))
  const urlParts = addFormats(new Ajv({ ...shared, coerceTypes: 'array' }))
  for (const schema of Object.values(app.getSchemas())) {
    bodies.addSchema(schema as object)
    urlParts.addSchema(schema as object)
  }
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodies : urlParts).compile(schema),
  )
}
