/**
 * pgvector's binary wire format (int16 dimensions, int16 unused, float4s, big-endian). `pg` sends a
 * Buffer parameter as binary, so `${vectorParam(v)}::vector` skips the text parser, which is slow
 * inside the embedded database's WebAssembly (~1.5k vectors/s as text, ~30k/s binary).
 */
export function vectorParam(values: readonly number[]): Buffer {
  const buffer = Buffer.allocUnsafe(4 + values.length * 4)
  buffer.writeInt16BE(values.length, 0)
  buffer.writeInt16BE(0, 2)
  for (let i = 0; i < values.length; i++) buffer.writeFloatBE(values[i]!, 4 + i * 4)
  return buffer
}
