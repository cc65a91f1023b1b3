import { sql, type Kysely } from 'kysely'

/**
 * Full text worth the name, and the embeddings table of semantic search.
 *
 * `search` becomes weighted (title and tags A, type/client/product B), holds every word twice, English-
 * stemmed and exact, so "banners" finds "Banner" and "Acme-2" still finds itself, and is accent- and
 * case-folded by `asset_library_fold`, which the query side mirrors in `modules/assets/full-text.ts`
 * (NFKD, marks dropped, then NFC again so that scripts such as Hangul keep their syllables).
 * Adding the generated column computes it for every existing row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function asset_library_fold(text) returns text
      language sql immutable parallel safe strict
      return normalize(replace(replace(replace(replace(replace(replace(replace(replace(
        regexp_replace(normalize(lower($1), NFKD), '[\u0300-\u036f]', '', 'g'),
        'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe'), 'ø', 'o'), 'ł', 'l'), 'đ', 'd'), 'ð', 'd'), 'þ', 'th'), NFC);

    -- Each group of words twice, stemmed then exact, with a gap between the copies: a lexeme no query
    -- can produce (a space) at the next position, so a phrase never spans the end of one copy and the
    -- start of the next ("sale banner" must not match "banner … sale").
    create function asset_library_search_vector(main text, extra text) returns tsvector
      language sql immutable parallel safe
      return setweight(to_tsvector('english', asset_library_fold(main)), 'A') || ''' '':1'::tsvector
        || setweight(to_tsvector('simple', asset_library_fold(main)), 'A') || ''' '':1'::tsvector
        || setweight(to_tsvector('english', asset_library_fold(extra)), 'B') || ''' '':1'::tsvector
        || setweight(to_tsvector('simple', asset_library_fold(extra)), 'B');

    alter table assets add column tag_text text not null default '';
    update assets set tag_text = coalesce((
      select string_agg(tags.name, ' ' order by lower(tags.name)) from asset_tags join tags on tags.id = asset_tags.tag_id
      where asset_tags.asset_id = assets.id), '');
    alter table assets drop column search, drop column search_text;
    alter table assets add column search tsvector generated always as (asset_library_search_vector(
      title || ' ' || tag_text,
      coalesce(asset_type, '') || ' ' || coalesce(client, '') || ' ' || coalesce(product, '')
    )) stored;
    create index assets_search_idx on assets using gin (search);

    -- One row per asset: the text to embed, and the vector made from it (the embedding column is added
    -- by migrate() when pgvector is there). The run state follows platform/background's convention.
    create table asset_embeddings (
      asset_id uuid primary key references assets(id) on delete cascade,
      organization_id uuid not null references organizations(id) on delete cascade,
      source_text text not null,
      text_hash text not null,
      embedded_hash text,
      model text,
      dimensions integer,
      embedded_at timestamptz,
      next_attempt_at timestamptz,
      attempts integer not null default 0,
      locked_by text,
      locked_until timestamptz,
      last_error text
    );
    create index asset_embeddings_due_idx on asset_embeddings (next_attempt_at) where next_attempt_at is not null;
    create index asset_embeddings_org_idx on asset_embeddings (organization_id, model);
  `.execute(db)

  // Existing assets wait for their first embedding. The text is the one embeddingText() builds.
  await sql`
    insert into asset_embeddings (asset_id, organization_id, source_text, text_hash, next_attempt_at)
    select id, organization_id, text, encode(sha256(convert_to(text, 'UTF8')), 'hex'), case when text <> '' then now() end
    from (
      select assets.id, assets.organization_id, left(concat_ws(E'\n', nullif(assets.title, ''), 'Type: ' || assets.asset_type,
        'Client: ' || assets.client, 'Product: ' || assets.product,
        'Tags: ' || (select string_agg(tags.name, ', ' order by lower(tags.name)) from asset_tags join tags on tags.id = asset_tags.tag_id
                     where asset_tags.asset_id = assets.id)), 4000) as text
      from assets
    ) texts
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table asset_embeddings;
    drop index assets_search_idx;
    alter table assets drop column search;
    alter table assets add column search_text text not null default '';
    update assets set search_text = concat_ws(' ', title, asset_type, client, product, nullif(tag_text, ''));
    alter table assets drop column tag_text;
    alter table assets add column search tsvector generated always as (to_tsvector('simple', search_text)) stored;
    create index assets_search_idx on assets using gin (search);
    drop function asset_library_search_vector(text, text);
    drop function asset_library_fold(text);
  `.execute(db)
}
