/**
 * Just enough of ONNX's protobuf encoding (onnx/onnx.proto, field numbers as there) to write small
 * models in tests and benches: tensors as raw little-endian data, graphs of plain nodes, one opset.
 */

type Bytes = Buffer

function varint(value: bigint): Bytes {
  const out: number[] = []
  let rest = BigInt.asUintN(64, value)
  do {
    const low = Number(rest & 0x7fn)
    rest >>= 7n
    out.push(rest > 0n ? low | 0x80 : low)
  } while (rest > 0n)
  return Buffer.from(out)
}

const VARINT = 0
const LENGTH_DELIMITED = 2
const FIXED32 = 5
const key = (field: number, wire: number) => varint(BigInt((field << 3) | wire))
const int = (field: number, value: number | bigint) => Buffer.concat([key(field, VARINT), varint(BigInt(value))])
const bytes = (field: number, data: Bytes) => Buffer.concat([key(field, LENGTH_DELIMITED), varint(BigInt(data.length)), data])
const text = (field: number, value: string) => bytes(field, Buffer.from(value, 'utf8'))
const message = (field: number, parts: Bytes[]) => bytes(field, Buffer.concat(parts))
const float = (field: number, value: number) => {
  const data = Buffer.alloc(4)
  data.writeFloatLE(value)
  return Buffer.concat([key(field, FIXED32), data])
}

/** TensorProto.DataType */
export const FLOAT = 1
export const INT32 = 6
export const INT64 = 7

export interface Tensor {
  name: string
  dims: number[]
  type: typeof FLOAT | typeof INT32 | typeof INT64
  /** The values, or (large weights) float32 values as they are. */
  values: number[] | Float32Array
}

function tensorParts({ name, dims, type, values }: Tensor): Bytes[] {
  return [...dims.map((dim) => int(1, dim)), int(2, type), text(8, name), bytes(9, rawData(type, values))]
}

function rawData(type: Tensor['type'], values: Tensor['values']): Bytes {
  if (values instanceof Float32Array) return Buffer.from(values.buffer, values.byteOffset, values.byteLength)
  const data = Buffer.alloc(values.length * (type === INT64 ? 8 : 4))
  values.forEach((value, i) => {
    if (type === FLOAT) data.writeFloatLE(value, i * 4)
    else if (type === INT32) data.writeInt32LE(value, i * 4)
    else data.writeBigInt64LE(BigInt(value), i * 8)
  })
  return data
}

/** An attribute's value: a number is an INT unless `float` says otherwise; a list of numbers is INTS. */
export type Attribute = number | number[] | { float: number }

function attribute(name: string, value: Attribute): Bytes[] {
  if (Array.isArray(value)) return [text(1, name), ...value.map((v) => int(8, v)), int(20, 7)]
  if (typeof value === 'object') return [text(1, name), float(2, value.float), int(20, 1)]
  return [text(1, name), int(3, value), int(20, 2)]
}

export interface Node {
  op: string
  inputs: string[]
  outputs: string[]
  attributes?: Record<string, Attribute>
}

export interface ValueInfo {
  name: string
  type: typeof FLOAT | typeof INT32 | typeof INT64
  dims: number[]
}

function valueInfo({ name, type, dims }: ValueInfo): Bytes[] {
  const shape = dims.map((dim) => message(1, [int(1, dim)]))
  return [text(1, name), message(2, [message(1, [int(1, type), message(2, shape)])])]
}

export interface Graph {
  nodes: Node[]
  initializers: Tensor[]
  inputs: ValueInfo[]
  outputs: ValueInfo[]
}

/** A ModelProto (IR version 8, the default opset `opset`) holding `graph`. */
export function encodeModel(graph: Graph, opset = 17): Buffer {
  const nodes = graph.nodes.map((node, i) =>
    message(1, [
      ...node.inputs.map((input) => text(1, input)),
      ...node.outputs.map((output) => text(2, output)),
      text(3, `${node.op}_${i}`),
      text(4, node.op),
      ...Object.entries(node.attributes ?? {}).map(([name, value]) => message(5, attribute(name, value))),
    ]),
  )
  const graphProto = [
    ...nodes,
    text(2, 'graph'),
    ...graph.initializers.map((tensor) => message(5, tensorParts(tensor))),
    ...graph.inputs.map((input) => message(11, valueInfo(input))),
    ...graph.outputs.map((output) => message(12, valueInfo(output))),
  ]
  return Buffer.concat([int(1, 8), text(2, 'asset-library tests'), message(7, graphProto), message(8, [text(1, ''), int(2, opset)])])
}
