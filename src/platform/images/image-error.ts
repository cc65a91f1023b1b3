/**
 * Why an image is refused. The `svg_*` kinds are the SVG sanitizer's (see `svg.ts`), and also a render
 * of an SVG that went past its time or memory limit (`svg_too_complex`).
 */
export type ImageErrorKind = 'not_an_image' | 'unsupported_format' | 'too_many_pixels' | 'image_truncated' | 'svg_script' | 'svg_external_reference' | 'svg_entity' | 'svg_too_complex'

/** The input is refused; `message` is safe to show to the client. */
export class ImageError extends Error {
  constructor(
    readonly kind: ImageErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'ImageError'
  }
}
