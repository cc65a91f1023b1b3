import { sql, type Kysely } from 'kysely'

/** Organizations, people, API keys, the event outbox and instance state. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table organizations (
      id uuid primary key,
      name text not null,
      slug text not null unique,
      plan text not null default 'free',
      ai_enabled boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table users (
      id uuid primary key,
      email text not null,
      name text not null default '',
      password_hash text not null,
      created_at timestamptz not null default now()
    );
    create unique index users_email_key on users (lower(email));

    create table memberships (
      organization_id uuid not null references organizations(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      role text not null check (role in ('owner', 'admin', 'member')),
      created_at timestamptz not null default now(),
      primary key (organization_id, user_id)
    );
    create index memberships_user_idx on memberships (user_id);

    create table invitations (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      email text not null,
      role text not null check (role in ('owner', 'admin', 'member')),
      token_hash text not null unique,
      invited_by uuid references users(id) on delete set null,
      expires_at timestamptz not null,
      accepted_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index invitations_org_idx on invitations (organization_id, created_at desc);

    create table sessions (
      id uuid primary key,
      token_hash text not null unique,
      user_id uuid not null references users(id) on delete cascade,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    );
    create index sessions_user_idx on sessions (user_id);

    create table api_keys (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      name text not null,
      prefix text not null unique,
      secret_hash text not null,
      scope text not null check (scope in ('assets:read', 'assets:write')),
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      expires_at timestamptz,
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    create index api_keys_org_idx on api_keys (organization_id, created_at desc);

    create table outbox_events (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      event text not null,
      payload jsonb not null,
      created_at timestamptz not null default now()
    );
    create index outbox_events_org_idx on outbox_events (organization_id, created_at);

    create table instance_state (
      key text primary key,
      value jsonb not null,
      updated_at timestamptz not null default now()
    );
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table instance_state, outbox_events, api_keys, sessions, invitations, memberships, users, organizations
  `.execute(db)
}
