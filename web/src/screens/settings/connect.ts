/**
 * The key the snippets of the Connect page use: a key just created (its secret, shown this once), or
 * a key of the organization picked by name, whose secret is never shown again, so the snippets hold a
 * placeholder that shows its prefix.
 */
export type SnippetKey = { secret: string } | { prefix: string } | null

export interface Snippet {
  id: string
  label: string
  /** Where it goes, in a few words: a file, a terminal. */
  where: string
  text: string
}

export interface SnippetGroup {
  id: string
  title: string
  snippets: Snippet[]
}

/** The variable the shell snippets, the command line and the MCP bridge read the key from. */
export const KEY_VARIABLE = 'ASSET_LIBRARY_KEY'

/** The key as written in a file (JSON configurations): the secret, or the picked key's prefix to replace. */
export const keyInFile = (key: SnippetKey) => (key && 'secret' in key ? key.secret : `al_${key ? key.prefix : ''}…`)

/**
 * Every snippet of the Connect page, for the server at `baseUrl` (its PUBLIC_BASE_URL). Shell snippets
 * read the key from `$ASSET_LIBRARY_KEY`, set by the first one; files that cannot read a variable hold
 * the key itself or its placeholder.
 */
export function connectSnippets(baseUrl: string, key: SnippetKey): SnippetGroup[] {
  const mcpUrl = `${baseUrl}/mcp`
  const fileKey = keyInFile(key)
  const json = (value: unknown) => JSON.stringify(value, null, 2)
  return [
    {
      id: 'api',
      title: 'The API with curl',
      snippets: [
        { id: 'env', label: 'Key variable', where: 'Terminal: once per shell', text: `export ${KEY_VARIABLE}='${fileKey}'` },
        { id: 'curl', label: 'curl', where: 'Terminal: the five newest assets', text: `curl -sS "${baseUrl}/api/v1/assets?limit=5" \\\n  -H "Authorization: Bearer $${KEY_VARIABLE}"` },
      ],
    },
    {
      id: 'sdk',
      title: 'The SDK',
      snippets: [
        {
          id: 'sdk',
          label: 'SDK',
          where: 'Node 20+ or a browser, with @asset-library/client installed',
          text: [
            "import { createClient } from '@asset-library/client'",
            '',
            `const client = createClient({ baseUrl: '${baseUrl}', apiKey: process.env.${KEY_VARIABLE}! })`,
            'const page = await client.assets.list({ limit: 5 })',
            'console.log(page.total, page.data.map((asset) => asset.title))',
          ].join('\n'),
        },
      ],
    },
    {
      id: 'cli',
      title: 'The command line',
      snippets: [
        {
          id: 'cli',
          label: 'Command line',
          where: 'Terminal: pushes every image of a folder the library lacks',
          text: `export ASSET_LIBRARY_URL=${baseUrl}\nnpx --no-install asset-library-client push ./folder`,
        },
      ],
    },
    {
      id: 'mcp',
      title: 'AI clients (MCP)',
      snippets: [
        {
          id: 'cursor',
          label: 'Cursor',
          where: '~/.cursor/mcp.json (over HTTP)',
          text: json({ mcpServers: { 'asset-library': { url: mcpUrl, headers: { Authorization: `Bearer ${fileKey}` } } } }),
        },
        {
          id: 'vscode',
          label: 'VS Code',
          where: '.vscode/mcp.json (over HTTP; VS Code asks for the key and keeps it)',
          text: json({
            inputs: [{ id: 'asset-library-key', type: 'promptString', description: 'Asset Library API key', password: true }],
            servers: { 'asset-library': { type: 'http', url: mcpUrl, headers: { Authorization: 'Bearer ${input:asset-library-key}' } } },
          }),
        },
        {
          id: 'claude-code',
          label: 'Claude Code',
          where: 'Terminal (over HTTP)',
          text: `claude mcp add --transport http asset-library ${mcpUrl} \\\n  --header "Authorization: Bearer $${KEY_VARIABLE}"`,
        },
        {
          id: 'claude-desktop',
          label: 'Claude Desktop',
          where: 'claude_desktop_config.json (over stdio, through the command line)',
          text: json({
            mcpServers: {
              'asset-library': { command: 'npx', args: ['--no-install', 'asset-library-client', 'mcp'], env: { ASSET_LIBRARY_URL: baseUrl, [KEY_VARIABLE]: fileKey } },
            },
          }),
        },
      ],
    },
    {
      id: 'webhooks',
      title: 'A webhook receiver',
      snippets: [
        {
          id: 'webhook',
          label: 'Webhook receiver',
          where: 'Node 20+, with @asset-library/client installed',
          text: [
            "import { createServer } from 'node:http'",
            "import { verifyWebhook, WebhookVerificationError } from '@asset-library/client'",
            '',
            'createServer(async (request, response) => {',
            '  const chunks = []',
            '  for await (const chunk of request) chunks.push(chunk)',
            '  try {',
            '    const event = await verifyWebhook(Buffer.concat(chunks), request.headers, process.env.ASSET_LIBRARY_WEBHOOK_SECRET)',
            '    console.log(event.event, event.id) // the same id may come twice: skip one already handled',
            '    response.writeHead(204).end()',
            '  } catch (error) {',
            '    if (!(error instanceof WebhookVerificationError)) throw error',
            '    response.writeHead(400).end(error.code)',
            '  }',
            '}).listen(8080)',
          ].join('\n'),
        },
      ],
    },
  ]
}
