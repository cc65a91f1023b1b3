import { sql, type Kysely } from 'kysely'

/**
 * The design-tool import (issue 35): Figma.
 * - `figma_connections`: an organization's stored Figma personal access token, sealed under the app
 *   secret (platform/crypto.ts `seal`), with whose token it is as Figma's `GET /v1/me` told.
 * - `imports`: one import of a Figma file and its stored selection; re-running it is a sync. It is a
 *   queue of the background runner (the claim columns of platform/background/claims.ts): a killed
 *   worker's lease runs out and another takes it over. `token_sealed` is the import's own
 *   `figma_token`, kept only while it is queued or running. `rerun_pending`: a sync was asked for
 *   while it ran (a Figma webhook); it runs again when it ends. Only one import of a file runs at once.
 * - `import_nodes`: the import's nodes, each with the outcome of the current run (null: not yet done,
 *   so a resumed run skips what is done) and the hash of the node as last rendered (a sync renders only
 *   what changed).
 * - `figma_webhooks`: the Figma webhooks an organization registered; Figma sends back the passcode,
 *   kept as its SHA-256 and compared in constant time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table figma_connections (
      organization_id uuid primary key references organizations(id) on delete cascade,
      token_sealed text not null,
      figma_user_id text not null,
      figma_handle text not null,
      figma_email text,
      connected_by_kind text not null check (connected_by_kind in ('key', 'user')),
      connected_by_name text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table imports (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      source text not null check (source in ('figma')),
      file_key text not null,
      file_url text not null,
      root_node_id text,
      selection text not null check (selection in ('frames', 'components', 'nodes')),
      node_ids text[] not null default '{}',
      format text not null check (format in ('png', 'svg', 'jpg')),
      scale real not null check (scale between 1 and 4),
      metadata jsonb not null default '{}',
      token_sealed text,
      status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
      error_code text,
      error_detail text,
      file_name text,
      file_version text,
      run integer not null default 1,
      rerun_pending boolean not null default false,
      created_by_kind text not null check (created_by_kind in ('key', 'user')),
      created_by_id text not null,
      created_by_name text not null,
      created_at timestamptz not null default now(),
      queued_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      next_attempt_at timestamptz,
      attempts integer not null default 0,
      locked_by text,
      locked_until timestamptz,
      last_error text
    );
    create index imports_due_idx on imports (next_attempt_at) where next_attempt_at is not null;
    create index imports_organization_idx on imports (organization_id, id desc);
    create index imports_file_idx on imports (organization_id, file_key);
    -- One run of a file at a time, whichever process claims it: a second import of the file waits.
    create unique index imports_running_file_idx on imports (organization_id, file_key) where status = 'running';

    create table import_nodes (
      import_id uuid not null references imports(id) on delete cascade,
      node_id text not null,
      name text not null,
      page_name text,
      component_set_name text,
      run integer not null,
      outcome text check (outcome in ('created', 'updated', 'unchanged', 'failed', 'missing')),
      reason text,
      detail text,
      content_hash text,
      rendered_hash text,
      asset_id uuid,
      primary key (import_id, node_id)
    );

    create table figma_webhooks (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      figma_webhook_id text not null,
      event_type text not null check (event_type in ('FILE_UPDATE', 'LIBRARY_PUBLISH')),
      context text not null check (context in ('file', 'project', 'team')),
      context_id text not null,
      passcode_hash text not null,
      created_at timestamptz not null default now(),
      unique (organization_id, event_type, context, context_id)
    );
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table figma_webhooks;
    drop table import_nodes;
    drop table imports;
    drop table figma_connections;
  `.execute(db)
}
