import { useEffect, useState } from 'react'

/**
 * Whether a picture has a pixel that is not fully opaque, read from the loaded thumbnail in the browser:
 * the server keeps no such fact, and the public record (the spec's) has no field for it. A thumbnail is
 * a WebP that keeps the original's alpha, so it tells for the original too.
 */

/** Side of the canvas the pixels are read at: a thumbnail is at most 512 px, so it is read whole. */
const MAX_SIDE = 512
/** By picture: a URL without its signature, which changes every hour while the picture never does. */
const known = new Map<string, boolean>()

const pictureOf = (url: string) => {
  const parsed = new URL(url, location.href)
  return `${parsed.origin}${parsed.pathname}`
}

/**
 * Reads the loaded image's pixels once per picture. A picture whose pixels cannot be read (from another
 * origin, which taints the canvas, or where there is no canvas) counts as transparent: a checkerboard
 * behind an opaque picture hides nothing, while a plain background would hide holes.
 */
export function isTransparent(image: HTMLImageElement): boolean {
  const picture = pictureOf(image.currentSrc || image.src)
  let transparent = known.get(picture)
  if (transparent === undefined) {
    transparent = readAlpha(image)
    known.set(picture, transparent)
  }
  return transparent
}

function readAlpha(image: HTMLImageElement): boolean {
  const scale = Math.min(1, MAX_SIDE / Math.max(image.naturalWidth, image.naturalHeight, 1))
  const width = Math.max(1, Math.round(image.naturalWidth * scale))
  const height = Math.max(1, Math.round(image.naturalHeight * scale))
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  try {
    const context = canvas.getContext('2d', { willReadFrequently: true })
    if (!context) return true
    context.drawImage(image, 0, 0, width, height)
    const { data } = context.getImageData(0, 0, width, height)
    for (let alpha = 3; alpha < data.length; alpha += 4) if (data[alpha]! < 255) return true
    return false
  } catch {
    return true
  }
}

/** Whether the picture at `url` is transparent, once it has loaded (undefined until then). */
export function useTransparency(url: string): boolean | undefined {
  const [transparent, setTransparent] = useState<{ url: string; transparent: boolean }>()
  useEffect(() => {
    const image = new Image()
    image.onload = () => setTransparent({ url, transparent: isTransparent(image) })
    image.src = url
    return () => {
      image.onload = null
    }
  }, [url])
  return transparent?.url === url ? transparent.transparent : undefined
}
