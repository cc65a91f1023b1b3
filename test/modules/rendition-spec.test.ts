import { describe, expect, it } from 'vitest'
import {
  MAX_OUTPUT_PIXELS,
  negotiateFormat,
  normaliseRendition,
  outputSize,
  parseSpecSegment,
  RenditionParamsError,
  specSegment,
  withinOutputLimits,
  type Clamped,
  type RenditionSpec,
} from '../../src/modules/renditions/spec.js'

const spec = (fields: Partial<RenditionSpec>): RenditionSpec => ({ width: null, height: null, fit: 'contain', format: 'webp', quality: 80, background: null, ...fields })

describe('normaliseRendition', () => {
  it('clamps sizes to 1..maxSide and quality to 20..100, rounding, and reports each', () => {
    const { spec: normalised, clamped } = normaliseRendition({ width: '0', height: '1e9', quality: '0' }, 4096)
    expect(normalised).toMatchObject({ width: 1, height: 4096, quality: 20 })
    expect(clamped).toEqual([
      { name: 'width', asked: 0, used: 1 },
      { name: 'height', asked: 1e9, used: 4096 },
      { name: 'quality', asked: 0, used: 20 },
    ])
    expect(normaliseRendition({ width: '-1', height: '10.4' }, 4096).spec).toMatchObject({ width: 1, height: 10 })
  })

  it('refuses nonsense, naming every field', () => {
    const refused = () => normaliseRendition({ width: 'abc', fit: 'stretch', format: 'bmp', background: 'red' }, 4096)
    expect(refused).toThrow(RenditionParamsError)
    try {
      refused()
    } catch (error) {
      expect((error as RenditionParamsError).problems.map((problem) => problem.field)).toEqual(['width', 'fit', 'format', 'background'])
    }
  })

  it('defaults to contain and auto, drops the quality of PNG and folds the background', () => {
    expect(normaliseRendition({}, 4096).spec).toEqual({ width: null, height: null, fit: 'contain', format: 'auto', quality: 80, background: null })
    expect(normaliseRendition({ format: 'PNG', quality: '50', background: '#FFAA00' }, 4096).spec).toMatchObject({ format: 'png', quality: null, background: 'ffaa00' })
  })
})

describe('withinOutputLimits', () => {
  it('scales a box over 40 megapixels down, aspect kept, and reports it', () => {
    const clamped: Clamped[] = []
    const lowered = withinOutputLimits(spec({ width: 8000, height: 8000 }), { width: 100, height: 100 }, 16_384, clamped)
    expect(lowered.width! * lowered.height!).toBeLessThanOrEqual(MAX_OUTPUT_PIXELS)
    expect(lowered.width).toBe(lowered.height)
    expect(clamped.map((entry) => entry.name)).toEqual(['width', 'height'])
  })

  it('lowers a side asked alone whose other side, in proportion, passes maxSide', () => {
    const clamped: Clamped[] = []
    const strip = withinOutputLimits(spec({ width: 4096 }), { width: 100, height: 1000 }, 4096, clamped)
    expect(outputSize(strip, { width: 100, height: 1000 })).toEqual({ width: 409, height: 4090 })
    expect(clamped).toEqual([{ name: 'width', asked: 4096, used: 409 }])
  })

  it('leaves a spec within the limits as it is', () => {
    const clamped: Clamped[] = []
    const asked = spec({ width: 1200, height: 630, fit: 'cover' })
    expect(withinOutputLimits(asked, { width: 4000, height: 3000 }, 4096, clamped)).toBe(asked)
    expect(clamped).toEqual([])
  })
})

describe('the canonical segment', () => {
  it('round-trips, and refuses any other spelling of the same spec', () => {
    const cover = spec({ width: 1200, height: 630, fit: 'cover', format: 'jpeg', quality: 82, background: 'ffffff' })
    expect(specSegment(cover)).toBe('w1200-h630-cover-q82-bffffff.jpeg')
    expect(parseSpecSegment('w1200-h630-cover-q82-bffffff.jpeg')).toEqual(cover)
    expect(parseSpecSegment('w512-contain.png')).toEqual(spec({ width: 512, format: 'png', quality: null }))
    for (const other of ['w0512-contain.png', 'h630-w1200-cover-q82.jpeg', 'w512-contain-q80.png', 'w512-contain.webp', 'w512-contain-bFFFFFF.png', 'w512-contain.gif']) {
      expect(parseSpecSegment(other), other).toBeNull()
    }
  })
})

describe('negotiateFormat', () => {
  it('prefers AVIF, then WebP, then JPEG for a JPEG original and PNG for any other', () => {
    expect(negotiateFormat('image/avif,image/webp,*/*', 'image/png')).toBe('avif')
    expect(negotiateFormat('image/webp,*/*', 'image/png')).toBe('webp')
    expect(negotiateFormat('*/*', 'image/jpeg')).toBe('jpeg')
    expect(negotiateFormat(undefined, 'image/svg+xml')).toBe('png')
  })
})
