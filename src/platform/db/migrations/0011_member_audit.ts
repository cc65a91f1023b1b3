import { sql, type Kysely } from 'kysely'

/**
 * The record of who removed a member, changed a role or handed over ownership, for owners and admins
 * (issue 22). Emails are copied in so that an entry still names the people involved after they leave.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table member_audit (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      action text not null check (action in ('removed', 'role_changed', 'ownership_transferred')),
      actor_id uuid references users(id) on delete set null,
      actor_email text not null,
      member_id uuid references users(id) on delete set null,
      member_email text not null,
      from_role text check (from_role in ('owner', 'admin', 'member')),
      to_role text check (to_role in ('owner', 'admin', 'member')),
      created_at timestamptz not null default now()
    );
    create index member_audit_org_idx on member_audit (organization_id, created_at desc, id desc);
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table member_audit`.execute(db)
}
