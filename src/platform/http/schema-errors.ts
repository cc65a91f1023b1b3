import type { Ajv, ErrorObject } from 'ajv'
import { escapePointer, type FieldProblem } from './errors.js'

/** The parts of a JSON Schema the translation reads. */
interface SchemaNode {
  type?: string | string[]
  const?: unknown
  enum?: unknown[]
  title?: string
  properties?: Record<string, SchemaNode>
  required?: string[]
  additionalProperties?: unknown
}

/** The schemas' way of saying "not only whitespace"; its message should not make clients read a regex. */
const NOT_BLANK = '\\S'

const URL_PARTS: Record<string, string> = { querystring: '/query', params: '/params', headers: '/headers' }

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
}

/** Each validation error as a problem of the field it is about, in words a person reads (see docs/api-conventions.md). */
export function fieldProblems(errors: readonly ErrorObject[], context?: string): FieldProblem[] {
  return errors.map((error) => fieldProblem(error, URL_PARTS[context ?? ''] ?? ''))
}

function fieldProblem(error: ErrorObject, base: string): FieldProblem {
  const pointer = `${base}${error.instancePath}`
  const { params } = error
  switch (error.keyword) {
    case 'additionalProperties':
      return { pointer: `${pointer}/${escapePointer(String(params.additionalProperty))}`, detail: params.for ? `is not a field of ${params.for}` : 'is not a known field' }
    case 'required':
      return { pointer: `${pointer}/${escapePointer(String(params.missingProperty))}`, detail: params.for ? `is required for ${params.for}` : 'is required' }
    case 'type':
      return { pointer: pointer || '/', detail: `must be ${typeWords(params.type)}` }
    case 'enum':
      return { pointer: pointer || '/', detail: `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}` }
    case 'const':
      return { pointer: pointer || '/', detail: `must be ${JSON.stringify(params.allowedValue)}` }
    case 'pattern':
      return { pointer: pointer || '/', detail: params.pattern === NOT_BLANK ? 'must not be blank' : (error.message ?? 'is invalid') }
    default:
      return { pointer: pointer || '/', detail: error.message ?? 'is invalid' }
  }
}

function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',')
  return types.map((name: string) => TYPE_WORDS[name] ?? name).join(' or ')
}

/** A validation function as Fastify and the MCP tools call it: its errors are set when it answers false. */
export type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null }

/**
 * A validator whose errors about a union (`anyOf`, `oneOf`) are those of the branch the value was meant
 * for. Ajv reports every branch's failures and then "must match a schema in anyOf", which reads as a
 * machine's (`kind: must be equal to constant / query: is required / must match a schema in anyOf`).
 * The branch meant is the one whose constant properties (its discriminator, as `kind: "smart"`) the
 * value agrees with and whose fields fit the value best; the value is checked against it alone, so a
 * required field reads "is required for a smart collection" (and one too many "is not a field of a
 * manual collection"). When no branch stands out, one error
 * names what the value may be.
 */
export function withReadableUnions(validate: Validator, schema: object, ajv: Ajv): Validator {
  const check: Validator = (data) => {
    const valid = validate(data)
    check.errors = valid ? null : readableUnions(validate.errors ?? [], schema, data, ajv)
    return valid
  }
  return check
}

function readableUnions(errors: ErrorObject[], root: unknown, data: unknown, ajv: Ajv): ErrorObject[] {
  const union = errors.findIndex((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf')
  if (union === -1) return errors
  const { instancePath: at, schemaPath } = errors[union]!
  const branches = schemaAt(root, schemaPath)
  if (!Array.isArray(branches)) return errors
  // Ajv lists each branch's errors just before the union's own; those inside a `$ref` carry the
  // referenced schema's path, not the branch's.
  const ofUnion = (error: ErrorObject, index: number) =>
    index < union && within(error.instancePath, at) && (error.schemaPath.startsWith(`${schemaPath}/`) || !error.schemaPath.startsWith('#'))
  const rest = errors.filter((error, index) => index !== union && !ofUnion(error, index))
  return [...readableUnions(rest, root, data, ajv), ...branchErrors(branches as SchemaNode[], valueAt(data, at), at, ajv)]
}

function branchErrors(branches: SchemaNode[], value: unknown, at: string, ajv: Ajv): ErrorObject[] {
  const constants = branches.map(constantOf)
  if (constants.every((constant) => constant !== undefined)) return [unionError(at, 'enum', { allowedValues: constants })]
  const chosen = branchMeant(branches, value)
  if (chosen === undefined) return [discriminatorError(branches, value, at) ?? unionError(at, 'anyOf', {}, `must be ${branches.map(describeBranch).join(' or ')}`)]
  const validate = ajv.compile(chosen)
  validate(value)
  const named = discriminated(chosen, value) && chosen.title ? withArticle(chosen.title.toLowerCase()) : undefined
  return readableUnions(validate.errors ?? [], chosen, value, ajv).map((error) => ({
    ...error,
    instancePath: `${at}${error.instancePath}`,
    ...(named && error.instancePath === '' && { params: { ...error.params, for: named } }),
  }))
}

/** The one branch that fits the value best, none of its constants contradicted; undefined on a tie. */
function branchMeant(branches: SchemaNode[], value: unknown): SchemaNode | undefined {
  const fits = branches.map((branch) => ({ branch, misfit: misfit(branch, value) })).filter((fit) => fit.misfit !== undefined)
  const best = Math.min(...fits.map((fit) => fit.misfit!))
  const meant = fits.filter((fit) => fit.misfit === best)
  return meant.length === 1 ? meant[0]!.branch : undefined
}

/** How many fields the value lacks or has too many for the branch; undefined when its type or a constant rules it out. */
function misfit(branch: SchemaNode, value: unknown): number | undefined {
  if (branch.type !== undefined && ![branch.type].flat().some((type) => hasType(value, type))) return undefined
  const constant = constantOf(branch)
  if (constant !== undefined) return constant === value ? 0 : undefined
  if (!isObject(value) || branch.properties === undefined) return 0
  const properties = branch.properties
  const contradicted = Object.entries(properties).some(([name, property]) => name in value && constantOf(property) !== undefined && constantOf(property) !== value[name])
  if (contradicted) return undefined
  const missing = (branch.required ?? []).filter((name) => !(name in value)).length
  const unknown = branch.additionalProperties === false ? Object.keys(value).filter((name) => !(name in properties)).length : 0
  return missing + unknown
}

/** When the value's discriminator (a property constant in every branch) matches none: the values it may take. */
function discriminatorError(branches: SchemaNode[], value: unknown, at: string): ErrorObject | undefined {
  if (!isObject(value)) return undefined
  const name = Object.keys(value).find((key) => branches.every((branch) => branch.properties?.[key] && constantOf(branch.properties[key]) !== undefined))
  const allowed = name === undefined ? [] : branches.map((branch) => constantOf(branch.properties![name]!))
  if (name === undefined || allowed.includes(value[name])) return undefined
  return unionError(`${at}/${escapePointer(name)}`, 'enum', { allowedValues: allowed })
}

/** Whether the value names the branch by one of its constant properties (`kind: "smart"`). */
function discriminated(branch: SchemaNode, value: unknown): boolean {
  return isObject(value) && Object.entries(branch.properties ?? {}).some(([name, property]) => constantOf(property) !== undefined && value[name] === constantOf(property))
}

function describeBranch(branch: SchemaNode): string {
  const constant = constantOf(branch)
  if (constant !== undefined) return JSON.stringify(constant)
  if (branch.title) return `${withArticle(branch.title.toLowerCase())}${branch.required?.length ? ` (${branch.required.join(', ')})` : ''}`
  return branch.type === undefined ? 'another shape' : typeWords(branch.type)
}

function constantOf(schema: SchemaNode): unknown {
  return schema.const ?? (schema.enum?.length === 1 ? schema.enum[0] : undefined)
}

/** A branch's title as a noun phrase: "a smart collection"; one already counted ("up to 100 assets") takes no article. */
function withArticle(noun: string): string {
  if (/^(up to|one|\d)/.test(noun)) return noun
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`
}

function unionError(instancePath: string, keyword: string, params: Record<string, unknown>, message?: string): ErrorObject {
  return { instancePath, schemaPath: '', keyword, params, ...(message && { message }) }
}

function hasType(value: unknown, type: string): boolean {
  if (type === 'null') return value === null
  if (type === 'integer') return Number.isInteger(value)
  if (type === 'array') return Array.isArray(value)
  if (type === 'object') return isObject(value)
  return typeof value === type
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function within(path: string, at: string): boolean {
  return path === at || path.startsWith(`${at}/`)
}

/** The part of a schema a `#/…` schema path names; undefined for a path into another schema. */
function schemaAt(root: unknown, schemaPath: string): unknown {
  if (!schemaPath.startsWith('#')) return undefined
  return segments(schemaPath.slice(1)).reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root)
}

function valueAt(data: unknown, pointer: string): unknown {
  return segments(pointer).reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], data)
}

function segments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
}
