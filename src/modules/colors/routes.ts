import { Type } from 'typebox'
import type { App } from '../../platform/http/app-type.js'
import { okResponse } from '../../platform/http/schemas.js'
import { COLOR_NAMES } from '../../platform/images/color-names.js'

const ColorSchema = Type.Object(
  {
    name: Type.String({ description: 'What `color=` takes, and what a palette colour is named.' }),
    hex: Type.String({ pattern: '^#[0-9a-f]{6}$', description: 'The colour a swatch of the name is drawn in (lowercase `#rrggbb`).' }),
  },
  { additionalProperties: false },
)

const ColorListSchema = Type.Object({ data: Type.Array(ColorSchema, { description: 'The colour names, in the order of the spectrum, then the neutrals.' }) }, { additionalProperties: false })

/** GET /api/v1/colors: the names the palettes use, the same for every organization. */
export function publicColorRoutes(app: App): void {
  const colors = { data: COLOR_NAMES.map(({ name, hex }) => ({ name, hex })) }
  app.get(
    '/api/v1/colors',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'listColors',
        tags: ['catalogue'],
        summary: 'List colour names',
        description:
          'The names an asset’s palette colours are given (the nearest in CIELAB) and `color=` filters by, each with the hex of its swatch. An asset is found by a name when its colours of that name cover at least 5% of its opaque pixels.',
        response: { 200: okResponse('The colour names.', ColorListSchema, { data: [{ name: 'red', hex: '#d32f2f' }] }) },
      },
    },
    async () => colors,
  )
}
