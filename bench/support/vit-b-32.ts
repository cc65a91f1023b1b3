import { writeFile } from 'node:fs/promises'
import { encodeModel, FLOAT, INT64, type Graph, type Node, type Tensor } from '../../test/support/onnx-proto.js'

/**
 * CLIP ViT-B/32's image tower with random weights: the same graph shapes as OpenAI's (32 px patches of a
 * 224 px image, 50 tokens of width 768, 12 layers of 12 heads with a 3072-wide QuickGELU MLP, a 512-wide
 * projection), so the same ~4.4 G multiply-adds per image, whatever the weights say. What it costs is
 * what the real model costs on the same runtime; what it answers means nothing. ~350 MB.
 */
const WIDTH = 768
const LAYERS = 12
const HEADS = 12
const PATCH = 32
const SIZE = 224
const TOKENS = (SIZE / PATCH) ** 2 + 1
const MLP = 3072
export const VIT_B_32_DIMENSIONS = 512

export async function writeVitB32Visual(path: string): Promise<void> {
  const nodes: Node[] = []
  const initializers: Tensor[] = []
  let seed = 1
  const weight = (name: string, dims: number[], scale = 0.02) => {
    const values = new Float32Array(dims.reduce((a, b) => a * b, 1))
    for (let i = 0; i < values.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0
      values[i] = (seed / 2 ** 32 - 0.5) * 2 * scale
    }
    initializers.push({ name, dims, type: FLOAT, values })
    return name
  }
  const constant = (name: string, dims: number[], values: number[], type: Tensor['type'] = FLOAT) => (initializers.push({ name, dims, type, values }), name)
  const op = (op: string, inputs: string[], output: string, attributes?: Node['attributes']) => (nodes.push({ op, inputs, outputs: [output], ...(attributes && { attributes }) }), output)
  const layerNorm = (input: string, name: string) => op('LayerNormalization', [input, constant(`${name}_scale`, [WIDTH], Array(WIDTH).fill(1)), constant(`${name}_bias`, [WIDTH], Array(WIDTH).fill(0))], `${name}_out`, { axis: -1 })
  const linear = (input: string, name: string, from: number, to: number) => op('Add', [op('MatMul', [input, weight(`${name}_w`, [from, to])], `${name}_mm`), weight(`${name}_b`, [to])], `${name}_out`)

  const patches = op('Conv', ['image', weight('patch_w', [WIDTH, 3, PATCH, PATCH])], 'patches', { kernel_shape: [PATCH, PATCH], strides: [PATCH, PATCH] })
  const flat = op('Transpose', [op('Reshape', [patches, constant('flat_shape', [3], [1, WIDTH, TOKENS - 1], INT64)], 'patches_flat')], 'patch_tokens', { perm: [0, 2, 1] })
  let x = op('Add', [op('Concat', [weight('class', [1, 1, WIDTH]), flat], 'tokens', { axis: 1 }), weight('position', [1, TOKENS, WIDTH])], 'embedded')
  x = layerNorm(x, 'ln_pre')
  const heads = constant('heads_shape', [4], [1, TOKENS, HEADS, WIDTH / HEADS], INT64)
  const merged = constant('merged_shape', [3], [1, TOKENS, WIDTH], INT64)
  const scale = constant('attention_scale', [], [1 / Math.sqrt(WIDTH / HEADS)])
  const thirds = constant('qkv_split', [3], [WIDTH, WIDTH, WIDTH], INT64)
  for (let layer = 0; layer < LAYERS; layer++) {
    const n = (name: string) => `l${layer}_${name}`
    const qkv = linear(layerNorm(x, n('ln_1')), n('qkv'), WIDTH, 3 * WIDTH)
    nodes.push({ op: 'Split', inputs: [qkv, thirds], outputs: [n('q'), n('k'), n('v')], attributes: { axis: 2 } })
    const split = (name: string, perm: number[]) => op('Transpose', [op('Reshape', [n(name), heads], n(`${name}_heads`))], n(`${name}_t`), { perm })
    const scores = op('Softmax', [op('Mul', [op('MatMul', [split('q', [0, 2, 1, 3]), split('k', [0, 2, 3, 1])], n('qk')), scale], n('scaled'))], n('attention'), { axis: -1 })
    const context = op('Reshape', [op('Transpose', [op('MatMul', [scores, split('v', [0, 2, 1, 3])], n('context_heads'))], n('context_t'), { perm: [0, 2, 1, 3] }), merged], n('context'))
    x = op('Add', [x, linear(context, n('out'), WIDTH, WIDTH)], n('residual_1'))
    const hidden = linear(layerNorm(x, n('ln_2')), n('fc'), WIDTH, MLP)
    const gelu = op('Mul', [hidden, op('Sigmoid', [op('Mul', [hidden, constant(n('gelu_k'), [], [1.702])], n('gelu_in'))], n('gelu_gate'))], n('gelu'))
    x = op('Add', [x, linear(gelu, n('proj'), MLP, WIDTH)], n('residual_2'))
  }
  const first = op('Gather', [x, constant('first_token', [], [0], INT64)], 'class_token', { axis: 1 })
  op('MatMul', [layerNorm(first, 'ln_post'), weight('projection', [WIDTH, VIT_B_32_DIMENSIONS])], 'embedding')
  const graph: Graph = {
    nodes,
    initializers,
    inputs: [{ name: 'image', type: FLOAT, dims: [1, 3, SIZE, SIZE] }],
    outputs: [{ name: 'embedding', type: FLOAT, dims: [1, VIT_B_32_DIMENSIONS] }],
  }
  await writeFile(path, encodeModel(graph))
}
