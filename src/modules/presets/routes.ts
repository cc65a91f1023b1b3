import { Type } from 'typebox'
import type { App } from '../../platform/http/app-type.js'
import { appNoContent, appProblemResponses, appResponse, COMPONENT, DataListSchema, okResponse } from '../../platform/http/schemas.js'
import { MAX_QUALITY, MIN_QUALITY } from '../renditions/spec.js'
import { MAX_PRESETS, type PresetService } from './service.js'

const PRESET_NAME_PATTERN = '^[a-z0-9][a-z0-9-]{0,39}$'

const PresetName = Type.String({
  pattern: PRESET_NAME_PATTERN,
  description: 'Lower-case letters, digits and hyphens, 1 to 40 of them, not starting with a hyphen: `web-1200`, `og-image`. `thumbnail` and `original` are reserved for the built-ins.',
})

const FIT = Type.Union([Type.Literal('contain'), Type.Literal('cover'), Type.Literal('inside')])
const FORMAT = [Type.Literal('png'), Type.Literal('jpeg'), Type.Literal('webp'), Type.Literal('avif')] as const

const Side = (side: string) =>
  Type.Union([Type.Null(), Type.Integer()], {
    description: `The ${side} in pixels, clamped to 1..\`RENDER_MAX_SIDE\` (4096 by default); null or left out: it follows from the other side and the image\u2019s aspect ratio (both left out: the image\u2019s own size).`,
  })

const PresetParamsSchema = {
  width: Type.Optional(Side('width')),
  height: Type.Optional(Side('height')),
  fit: Type.Optional(
    Type.Union(FIT.anyOf, {
      description: '`contain` (the default): the whole image inside the box, padded to it; `cover`: the box filled, cropped from the centre; `inside`: the whole image inside the box, not padded.',
    }),
  ),
  format: Type.Union([...FORMAT], { description: 'The file format. `auto` is not a preset\u2019s: the record\u2019s link of a preset names one format.' }),
  quality: Type.Optional(
    Type.Union([Type.Null(), Type.Integer()], { description: `${MIN_QUALITY}..${MAX_QUALITY} (clamped); 80 when left out; none for PNG, which is lossless.` }),
  ),
  background: Type.Optional(
    Type.Union([Type.Null(), Type.String({ maxLength: 9 })], { description: 'The padding\u2019s colour as `rrggbb` or `rrggbbaa` hex (a leading `#` is dropped); transparent when left out, white for JPEG.' }),
  ),
}

const CreatePresetBody = Type.Object({ name: PresetName, ...PresetParamsSchema }, { additionalProperties: false })
const ReplacePresetBody = Type.Object(PresetParamsSchema, { additionalProperties: false })

export const PresetSchema = Type.Object(
  {
    name: Type.String(),
    built_in: Type.Boolean({ description: '`thumbnail` and `original`, which every organization has and nobody changes.' }),
    width: Type.Union([Type.Null(), Type.Integer()]),
    height: Type.Union([Type.Null(), Type.Integer()]),
    fit: FIT,
    format: Type.Union([Type.Null(), ...FORMAT], { description: 'Null for `original`: the file as pushed.' }),
    quality: Type.Union([Type.Null(), Type.Integer()], { description: 'Null for PNG and for `original`.' }),
    background: Type.Union([Type.Null(), Type.String()], { description: '`rrggbb` or `rrggbbaa`; null: transparent, white for JPEG.' }),
  },
  {
    [COMPONENT]: 'Preset',
    additionalProperties: false,
    description: 'A named rendition: every asset record links it in `renditions`, and `GET /api/v1/assets/{id}/render?preset=NAME` makes it.',
  },
)

const PRESETS_EXAMPLE = {
  data: [
    { name: 'thumbnail', built_in: true, width: 512, height: 512, fit: 'inside' as const, format: 'webp' as const, quality: 80, background: null },
    { name: 'original', built_in: true, width: null, height: null, fit: 'inside' as const, format: null, quality: null, background: null },
    { name: 'og-image', built_in: false, width: 1200, height: 630, fit: 'cover' as const, format: 'jpeg' as const, quality: 82, background: null },
    { name: 'web-1200', built_in: false, width: 1200, height: null, fit: 'contain' as const, format: 'webp' as const, quality: 80, background: null },
  ],
}

const PresetList = DataListSchema(PresetSchema)
const OrgParams = Type.Object({ org: Type.String() })
const PresetParams = Type.Object({ org: Type.String(), name: Type.String({ minLength: 1, maxLength: 40 }) })
const TAGS = ['app-presets']
const MANAGER = { auth: { kind: 'session', role: 'manager' } } as const

/** GET /api/v1/presets: what `renditions` of an asset record names, with the parameters of each. */
export function publicPresetRoutes(app: App, deps: { presets: PresetService }): void {
  app.get(
    '/api/v1/presets',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'listPresets',
        tags: ['presets'],
        summary: 'List rendition presets',
        description:
          'The built-in presets (`thumbnail`, `original`) first, then the organization\u2019s own by name, each with its parameters. Every asset record links each of them in `renditions`. Owners and admins define them in Settings.',
        response: { 200: okResponse('The presets.', PresetList, PRESETS_EXAMPLE) },
      },
    },
    async (request) => ({ data: await deps.presets.list(request.caller!.organizationId) }),
  )
}

/** /app/api/orgs/:org/presets: members read the presets, owners and admins define them. */
export function appPresetRoutes(app: App, deps: { presets: PresetService }): void {
  const { presets } = deps
  app.get(
    '/app/api/orgs/:org/presets',
    {
      config: { auth: { kind: 'session', role: 'member' } },
      schema: {
        operationId: 'appListPresets',
        tags: TAGS,
        summary: 'List rendition presets',
        description: 'The built-ins first, then the organization\u2019s own by name.',
        params: OrgParams,
        response: { 200: appResponse('The presets.', PresetList) },
      },
    },
    async (request) => ({ data: await presets.list(request.membership!.organization.id) }),
  )

  app.post(
    '/app/api/orgs/:org/presets',
    {
      config: MANAGER,
      schema: {
        operationId: 'appCreatePreset',
        tags: TAGS,
        summary: 'Create a rendition preset',
        description: `Out-of-range sizes and quality are clamped as a render clamps them; the answer shows what was kept. An organization keeps at most ${MAX_PRESETS}.`,
        params: OrgParams,
        body: CreatePresetBody,
        response: {
          201: appResponse('The preset as kept.', PresetSchema),
          ...appProblemResponses({ preset_name_taken: true, preset_name_reserved: true, preset_limit_reached: true }),
        },
      },
    },
    async (request, reply) => {
      const { name, ...params } = request.body
      return reply.code(201).send(await presets.create(request.membership!.organization.id, name, params))
    },
  )

  app.put(
    '/app/api/orgs/:org/presets/:name',
    {
      config: MANAGER,
      schema: {
        operationId: 'appReplacePreset',
        tags: TAGS,
        summary: 'Change a rendition preset',
        description: 'Replaces every parameter (one left out takes its default). Records show the new link at once; links given out before keep serving what they were made for until they expire.',
        params: PresetParams,
        body: ReplacePresetBody,
        response: {
          200: appResponse('The preset as kept.', PresetSchema),
          ...appProblemResponses({ not_found: 'no preset of this name in the organization', preset_name_reserved: true }),
        },
      },
    },
    async (request) => presets.replace(request.membership!.organization.id, request.params.name, request.body),
  )

  app.delete(
    '/app/api/orgs/:org/presets/:name',
    {
      config: MANAGER,
      schema: {
        operationId: 'appDeletePreset',
        tags: TAGS,
        summary: 'Delete a rendition preset',
        description: 'Records stop linking it at once.',
        params: PresetParams,
        response: { 204: appNoContent('Deleted.'), ...appProblemResponses({ not_found: 'no preset of this name in the organization', preset_name_reserved: true }) },
      },
    },
    async (request, reply) => {
      await presets.delete(request.membership!.organization.id, request.params.name)
      return reply.code(204).send()
    },
  )
}
