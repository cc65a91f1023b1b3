import { Type } from 'typebox'
import { RENDITION_FITS, REQUESTED_FORMATS } from './spec.js'

export const RenderParams = Type.Object({ id: Type.String({ format: 'uuid' }) })

export const RenderQuery = Type.Object({
  width: Type.Optional(Type.Number({ description: 'Pixels; clamped to 1..`RENDER_MAX_SIDE` (4096 by default). Alone, the height follows the aspect ratio.' })),
  height: Type.Optional(Type.Number({ description: 'Pixels; clamped to 1..`RENDER_MAX_SIDE`. Alone, the width follows the aspect ratio.' })),
  fit: Type.Optional(
    Type.Union(
      RENDITION_FITS.map((fit) => Type.Literal(fit)),
      { description: 'With both sides: `contain` (default) pads the image to the box (transparent, white for JPEG, or `background`), `cover` fills the box and crops from the centre, `inside` fits the image in the box without padding and never enlarges it.' },
    ),
  ),
  format: Type.Optional(
    Type.Union(
      REQUESTED_FORMATS.map((format) => Type.Literal(format)),
      { description: '`auto` (default) picks AVIF or WebP when `Accept` names it, else JPEG for a JPEG original and PNG otherwise; the answer then carries `Vary: Accept`.' },
    ),
  ),
  quality: Type.Optional(Type.Number({ description: 'JPEG, WebP and AVIF quality, clamped to 20..100 (default 80); ignored for PNG.' })),
  background: Type.Optional(Type.String({ maxLength: 9, description: 'The padding colour of `contain`, `rrggbb` or `rrggbbaa` (a leading `#` is allowed).' })),
  preset: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'A preset instead of the parameters above (which cannot be combined with it): `thumbnail` and `original` answer those files\u2019 links, any other name one of the organization\u2019s presets (`GET /api/v1/presets`). An unknown name is 400.',
    }),
  ),
  version: Type.Optional(Type.Integer({ minimum: 1, description: 'A version of the asset (see `GET /assets/{id}/versions`); the current one by default.' })),
  redirect: Type.Optional(Type.Boolean({ default: true, description: '`false` answers the link as JSON instead of redirecting to it.' })),
})

export const RenditionLinkSchema = Type.Object(
  {
    url: Type.String({ format: 'uri', description: 'The signed file URL (`?expires=…&sig=…`), valid as long as `original_url`. Its file is made on its first request if need be.' }),
    width: Type.Integer({ description: 'The file\u2019s width in pixels.' }),
    height: Type.Integer({ description: 'The file\u2019s height in pixels.' }),
    format: Type.String({ description: '`png`, `jpeg`, `webp` or `avif`; for `preset=original`, the original\u2019s own (`gif`, `svg+xml`…).' }),
    expires_at: Type.String({ format: 'date-time', description: 'When `url` stops working.' }),
  },
  { additionalProperties: false },
)

export const RENDITION_LINK_EXAMPLE = {
  url: 'https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1767225600&sig=3f5a9c0e2b7d4f61a8c35e9d0b1f7a2c4e6d8b0a1c3e5f7092b4d6f8a0c2e4f6',
  width: 1200,
  height: 800,
  format: 'webp',
  expires_at: '2026-01-01T00:00:00.000Z',
}
