// Generated from openapi/v1.json by `npm run types:generate -w @asset-library/client`. Do not edit.

export interface paths {
    "/api/v1/auth/key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Describe the calling API key
         * @description Tells a script which organization, name, prefix, scope, expiry and rate limits its key has. Any scope may call it.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["getCurrentKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke the calling API key
         * @description The key used for this call stops working at once. Any scope may revoke itself. Takes no body.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        post: operations["revokeCurrentKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tags
         * @description The organization’s tags with usage counts, most used first; `q` filters by prefix for autocomplete.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listTags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/asset-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the asset-type catalogue
         * @description The asset types an asset may have (`asset_type` on push and PATCH must be one of them), with how many assets use each.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listAssetTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List client names
         * @description Client names both registered in the organization and used by assets, merged case-insensitively, most used first.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listClients"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List product names
         * @description Product names both registered in the organization and used by assets, merged case-insensitively, most used first.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/presets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List rendition presets
         * @description The built-in presets (`thumbnail`, `original`) first, then the organization’s own by name, each with its parameters. Every asset record links each of them in `renditions`. Owners and admins define them in Settings.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listPresets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an asset’s versions
         * @description Every version of the asset, the current one included, newest first (not paginated: an asset has few). Each with signed links to its own files, which serve that version’s bytes for as long as they are valid.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listAssetVersions"];
        put?: never;
        /**
         * Upload a new version of an asset
         * @description A new file for the asset, sent as the push sends one: `application/json` with exactly one of `image_url` or `image_base64`, or `multipart/form-data` with a `file` part (or an `image_url` field).
         *
         *     The asset keeps its id, metadata, tags and collections; its `version` goes up by one and its file facts, thumbnail and derived data follow the new file. Emits `asset.updated` with `changes: ["file"]`. Its current bytes again answer 200 with `duplicate: true` and change nothing; an earlier version’s bytes become the new version; another asset’s are 409.
         *
         *     The format is read from the bytes: JPEG, PNG, WebP, GIF, AVIF, TIFF or SVG, up to 25 MiB and 50 megapixels. An SVG is accepted when its sanitizer finds no script, event attribute, `foreignObject`, DOCTYPE or reference outside the file (only `#id` and base64 `data:image/…`, whose images are checked like a pushed one); otherwise it is refused with 422 and an `svg_*` code, never changed. Its `width` and `height` come from its `width`/`height` attributes or viewBox, its `mime_type` is `image/svg+xml`, and its `<title>` and `<desc>` are searched as full text. Its thumbnail is rendered in a process with time and memory limits; past either, `thumbnail_status` is `failed` with the reason.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `expensive` (30 a minute per key, or the key’s own `limit_expensive`; shared with the other expensive calls).
         */
        post: operations["uploadAssetVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/{id}/versions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make an earlier version the newest
         * @description Copies the version as a new one (the previous newest plus one): history stays linear and nothing is lost. Emits `asset.updated` with `changes: ["file"]`. Restoring the version whose bytes are current answers 200 with `duplicate: true` and changes nothing.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        post: operations["restoreAssetVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List and filter assets
         * @description Newest first unless `sort` says otherwise. Filters combine (AND). Page by `offset`, or by `cursor`: each page’s `next_cursor` asks for the page after it, at the same cost at any depth, and paging so neither skips nor repeats an asset while others are added or deleted.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listAssets"];
        put?: never;
        /**
         * Push an asset
         * @description Stores an image with its metadata, sent one of two ways:
         *     - `application/json`: exactly one of `image_url` or `image_base64`, with the other fields.
         *     - `multipart/form-data`: the image’s bytes as a part named `file` (or an `image_url` field instead), the other fields as form fields; `tag_names` repeated once per name or as one JSON array, `created_by_ai` as `true` or `false`. No base64 overhead: the fastest way to push a file. For example `curl -F file=@logo.png -F title=Logo -F tag_names=brand`.
         *
         *     The same bytes pushed again answer 200 with `duplicate: true` and change nothing (but a named manual collection still receives the asset). Bytes of an asset in the trash restore that asset (emitting `asset.restored`) and answer the same, with its id.
         *
         *     The format is read from the bytes: JPEG, PNG, WebP, GIF, AVIF, TIFF or SVG, up to 25 MiB and 50 megapixels. An SVG is accepted when its sanitizer finds no script, event attribute, `foreignObject`, DOCTYPE or reference outside the file (only `#id` and base64 `data:image/…`, whose images are checked like a pushed one); otherwise it is refused with 422 and an `svg_*` code, never changed. Its `width` and `height` come from its `width`/`height` attributes or viewBox, its `mime_type` is `image/svg+xml`, and its `<title>` and `<desc>` are searched as full text. Its thumbnail is rendered in a process with time and memory limits; past either, `thumbnail_status` is `failed` with the reason.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `expensive` (30 a minute per key, or the key’s own `limit_expensive`; shared with the other expensive calls).
         */
        post: operations["pushAsset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask which files the library already has
         * @description Looks up to 1,000 SHA-256 hashes of image files (64 lowercase hex digits each) among your organization’s assets in one request, so a client pushes only the bytes the library lacks. Changes nothing. Another organization’s identical bytes are missing. A malformed hash is 400, its pointer naming the item (`/sha256/3`).
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        post: operations["checkAssets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit many assets at once
         * @description Sets fields on up to 500 assets and adds or removes tags, in one transaction. Give at least one change: `set` (asset type, client, product, origin), `add_tags` or `remove_tags` (a tag in both is refused). Tags are matched case-insensitively and trimmed; an added tag takes the catalogue’s spelling.
         *
         *     Answers 200 even when some ids fail, one result per distinct id in the order given: `updated` (emits one `asset.updated` for that asset, its `changes` naming the fields that changed), `unchanged` (it had every value already: no event), `not_found` (another organization’s, in the trash, or no asset), or `forbidden` (you may not edit it; today every role edits every asset, so this is not answered yet). An asset type outside the catalogue is 422 for the whole request, and nothing changes.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        post: operations["bulkEditAssets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch one asset
         * @description The asset record, with signed thumbnail and original URLs valid about 24 hours.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["getAsset"];
        put?: never;
        post?: never;
        /**
         * Delete an asset
         * @description Moves the asset to the trash (`GET /api/v1/trash`): it leaves every read and its collections, and is restorable with its files, tags, collections and versions until the purge, `TRASH_RETENTION_DAYS` later (with 0, it is purged at once). Emits `asset.deleted`. Through the web app’s session, a member deletes only the assets they pushed; owners and admins, and API keys, delete any.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        delete: operations["deleteAsset"];
        options?: never;
        head?: never;
        /**
         * Update an asset’s metadata and tags
         * @description Changes only the fields sent. `tag_names` replaces all tags. Emits `asset.updated`.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        patch: operations["updateAsset"];
        trace?: never;
    };
    "/api/v1/assets/{id}/render": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Render an asset at a size and in a format
         * @description Redirects (302) to a signed file URL of the asset’s image at this size and in this format, valid as long as `original_url`: the rendition is made first when it is not stored yet, then served from storage with `Cache-Control: public, max-age=31536000, immutable`. With `redirect=false`, answers the link as JSON without making anything.
         *
         *     Out-of-range values are clamped, never refused, and reported in `Rendition-Clamped`; output is capped at 40 megapixels. Only nonsense (`width=abc`, an unknown `fit` or `format`, an unknown `preset`) is 400.
         *
         *     The bucket is `expensive` when a redirect must make the rendition first, and `cheap` when it is stored or with `redirect=false` (which makes nothing).
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `expensive` (30 a minute per key, or the key’s own `limit_expensive`; shared with the other expensive calls), or `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["renderAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trash": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the trash
         * @description Deleted assets, last deleted first, paginated like the asset list. Each stays restorable until its `purge_at` (`TRASH_RETENTION_DAYS` after the delete), when a background purge removes it and its files.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listTrash"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trash/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore an asset from the trash
         * @description Puts the asset back as it was: its id, metadata, tags, version history, `external_id` and the manual collections that still exist. Emits `asset.restored`, whose data is the record, as `asset.created`’s. A push of a trashed asset’s bytes restores it too.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        post: operations["restoreTrashedAsset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trash/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an asset from the trash for good
         * @description Purges it now, as the background purge does at `purge_at`: the asset, its versions, and their files unless another asset or version uses the same bytes. It cannot be restored after. From the web app, only owners and admins may purge.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        delete: operations["purgeTrashedAsset"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List collections
         * @description Newest first; filter by `kind` or by a part of the name (`q`).
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listCollections"];
        put?: never;
        /**
         * Create a collection
         * @description Manual (add assets through the API) or smart (give a `query`: the filters of GET /api/v1/assets). Emits `collection.created`.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        post: operations["createCollection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/collections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch a collection and its assets
         * @description The collection with `asset_count` and a page of its assets (`limit`, `offset` or `cursor`, `sort`). A smart collection’s assets are exactly what GET /api/v1/assets returns for its query, in the order of its `query.sort` unless `sort` is given. `assets.next_cursor` asks for the next page, as in the asset list.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["getCollection"];
        put?: never;
        post?: never;
        /**
         * Delete a collection
         * @description The assets themselves are kept. Through the web app’s session, a member deletes only the collections they created; owners and admins, and API keys, delete any.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        delete: operations["deleteCollection"];
        options?: never;
        head?: never;
        /**
         * Update a collection
         * @description Name, description, and for a smart collection its query. The kind cannot change.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        patch: operations["updateCollection"];
        trace?: never;
    };
    "/api/v1/collections/{id}/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add assets to a manual collection
         * @description Adding an asset that is already there is a no-op. An unknown asset (or one of another organization) is 404 and nothing changes.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        post: operations["addCollectionAssets"];
        /**
         * Remove assets from a manual collection
         * @description Removing an asset that is not there is a no-op. An unknown asset is 404 and nothing changes.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        delete: operations["removeCollectionAssets"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/collections/{id}/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * See the public link again
         * @description The collection’s live link, as it was made (it is kept encrypted under a key derived from APP_SECRET; lookups use its hash). Links made before links were kept answer `share_url: null`. Any key (`assets:read`) may read it, as it reads the assets’ signed file links; from the web app, only owners and admins.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["getCollectionShare"];
        put?: never;
        /**
         * Create a public link
         * @description An unguessable read-only link (`/s/{token}` as an HTML gallery, `/s/{token}.json` as JSON), replacing any earlier link, which stops working. GET on the same path shows it again while it is live. Emits `collection.shared`. From the web app, only owners and admins may share.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        post: operations["shareCollection"];
        /**
         * Revoke the public link
         * @description The link answers 404 from now on. From the web app, only owners and admins may unshare.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        delete: operations["unshareCollection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hybrid search: full text plus meaning
         * @description Candidates come from full text and from embedding similarity (the top of each, under the same filters as `GET /api/v1/assets`), ranked by `score = 0.4 × text_score + 0.6 × semantic_score`. The meaning compared is what the picture shows when the server has an image model (CLIP: the query’s words against each image’s embedding, so untitled pictures are found by their content), otherwise the meaning of each asset’s title, tags, type, client and product. Each call makes exactly one request to one embedding provider, the image one when configured (which is why it shares the `expensive` bucket with pushes); `mode` says whether it was used. With AI off for the organization, no provider or pgvector configured, or the provider failing or slow, the answer is full-text ranking in `text` mode, never an error. An `assets:read` key may call it.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `expensive` (30 a minute per key, or the key’s own `limit_expensive`; shared with the other expensive calls).
         */
        post: operations["searchAssets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assets/{id}/similar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Assets nearest to one asset by meaning or by appearance
         * @description `by=meaning` (the default): the organization’s assets nearest to this one by embedding, excluding itself, nearest first, each with its `semantic_score`: picture to picture (CLIP) when the server has an image model and this asset’s picture is embedded, otherwise by the embedding of its text. Uses the stored vectors: no provider call. Empty when AI is off for the organization or the asset has no embedding yet.
         *
         *     `by=appearance`: the organization’s live assets whose perceptual hash is within 7 bits (of 64) of this one’s, excluding itself, closest first (then by id), each with its `distance`: every such asset, found through the hashes’ bands, not only the near-duplicates within `NEAR_DUPLICATE_DISTANCE`. Needs no AI and no provider. Empty while this asset’s hash is being made (after the push answers; see `near_duplicates`) and for an image that cannot be decoded or is too plain to compare (one flat colour).
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["similarAssets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/duplicates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List groups of near-duplicates
         * @description Live assets whose pictures are nearly the same (perceptual hashes within `NEAR_DUPLICATE_DISTANCE`, 6 bits of 64 by default), in groups to review: each group is an asset and its near-duplicates pushed after it, with their distances. Each cluster is listed once, led by its oldest asset: an asset leads no group of its own when an older near-duplicate of it is near all its newer ones too (they are all in that group). In a chain (A near B, B near C, A not near C) B also leads a group, so no pair is lost. Groups whose asset was pushed last come first; paginated like the asset list. An asset is found once its hash is made, after the push answers.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listDuplicates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/duplicates/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Keep one asset and trash its duplicates
         * @description In one transaction: the asset `keep` joins every manual collection of the assets in `trash` and gains their tags (emitting `asset.updated` with `changes` naming `collections` and `tags` when they changed), then each asset of `trash` moves to the trash as `DELETE /api/v1/assets/{id}` moves it (`asset.deleted` each, restorable until the purge). Any id that is not a live asset of the organization (another organization’s, one already in the trash, or none) answers 404 and changes nothing; so does a member’s session naming an asset someone else pushed (403). Any two assets may be resolved, near-duplicates or not.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `standard` (60 a minute per key, shared by the other writes).
         */
        post: operations["resolveDuplicates"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/colors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List colour names
         * @description The names an asset’s palette colours are given (the nearest in CIELAB) and `color=` filters by, each with the hex of its swatch. An asset is found by a name when its colours of that name cover at least 5% of its opaque pixels.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listColors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List imports
         * @description Your organization’s imports, newest first, each with its current run’s counts; `file_key` narrows them to one Figma file.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listImports"];
        put?: never;
        /**
         * Import frames or components from Figma
         * @description Queues an import of a Figma file and answers 202 at once; follow it with `GET /api/v1/imports/{id}`. The background job reads the file, renders the selected nodes in batches, downloads each image and pushes it with `external_id` `figma:FILEKEY:NODEID`, the node’s name as title, its page (and a variant’s component set) as tags, and a `source_url` that opens the node in Figma; `asset.created` fires for each new asset with `data.source` `{kind: "figma", file_key, node_id, import_id}`. The token (`figma_token`, or the organization’s stored one) is not tried here: an invalid one ends the import `failed` with `figma_token_invalid`. An import’s own token is kept encrypted until its run ends, then erased. Another import of the same file waits for this one to end: one file never gets two sets of assets.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `expensive` (30 a minute per key, or the key’s own `limit_expensive`; shared with the other expensive calls).
         */
        post: operations["createImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/imports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow an import
         * @description Its status (`queued`, `running`, `done`, `failed`), the counts of its current run (`total`, `created`, `updated`, `unchanged`, `failed`, `missing`) with each failed node’s reason and each missing node, the Figma file’s name and `version`, and when the run started and finished. The counts grow while it runs.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["getImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/imports/{id}/nodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an import’s nodes and what happened to each
         * @description The nodes of the import’s current run, by page, component set, name, then node id (a stable order), each with its `outcome` (null while the run has not done it yet), a failed node’s `reason` and `detail`, its asset and a link that opens it in Figma. Nodes an earlier run imported that the file no longer has are listed as `missing`. `outcome` narrows the list to one outcome, or to `pending` nodes. Read it again while the import runs: outcomes fill in as nodes are done.
         *
         *     Needs an API key with scope `assets:read` or `assets:write`. Rate-limit bucket: `cheap` (120 a minute per key, or the key’s own `limit_cheap`; shared by every GET and `POST /assets/check`).
         */
        get: operations["listImportNodes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/imports/{id}/rerun": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run an import again (a sync)
         * @description Runs the import again with its stored selection and metadata: a node whose rendering changed gets a new version (`asset.updated` with `changes: ["file"]`, and `title`/`tags` when it was renamed or moved), an unchanged node is not rendered again, a new node becomes a new asset, and a node gone from the file is reported in `missing_nodes` (its asset is kept). Send `figma_token` again unless the organization has a stored token (then `{}`, or no body at all). The record then reports the new run’s counts.
         *
         *     Needs an API key with scope `assets:write`. Rate-limit bucket: `expensive` (30 a minute per key, or the key’s own `limit_expensive`; shared with the other expensive calls).
         */
        post: operations["rerunImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    ping: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * ping: A test delivery an owner or admin asked for.
         * @description Sent to every enabled subscription to `ping` (a ping goes to the one subscription pinged, whatever it subscribes to), signed with its secret. A receiver ignores event kinds it does not know.
         */
        post: operations["pingEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "asset.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * asset.created: An asset is pushed, uploaded or imported (a duplicate push fires nothing).
         * @description Sent to every enabled subscription to `asset.created`, signed with its secret. A receiver ignores event kinds it does not know.
         */
        post: operations["assetCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "asset.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * asset.updated: An asset’s metadata is edited, or it gets a new version.
         * @description Sent to every enabled subscription to `asset.updated`, signed with its secret. A receiver ignores event kinds it does not know.
         */
        post: operations["assetUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "asset.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * asset.deleted: An asset is deleted (moved to the trash).
         * @description Sent to every enabled subscription to `asset.deleted`, signed with its secret. A receiver ignores event kinds it does not know.
         */
        post: operations["assetDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "asset.restored": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * asset.restored: An asset comes back from the trash: its record, as `asset.created`’s without `source`.
         * @description Sent to every enabled subscription to `asset.restored`, signed with its secret. A receiver ignores event kinds it does not know.
         */
        post: operations["assetRestoredEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "collection.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * collection.created: A collection is created.
         * @description Sent to every enabled subscription to `collection.created`, signed with its secret. A receiver ignores event kinds it does not know.
         */
        post: operations["collectionCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "collection.shared": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * collection.shared: A collection gets a public link (a new link replaces the old one).
         * @description Sent to every enabled subscription to `collection.shared`, signed with its secret. A receiver ignores event kinds it does not know.
         */
        post: operations["collectionSharedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.invited": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * member.invited: A teammate is invited.
         * @description Sent to every enabled subscription to `member.invited`, signed with its secret. A receiver ignores event kinds it does not know.
         */
        post: operations["memberInvitedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.joined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * member.joined: An invitation is accepted.
         * @description Sent to every enabled subscription to `member.joined`, signed with its secret. A receiver ignores event kinds it does not know.
         */
        post: operations["memberJoinedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        FieldProblem: {
            /** @description JSON Pointer into the body, or /query/<name> for a query parameter. */
            pointer: string;
            detail: string;
        };
        /**
         * @description RFC 9457 problem details.
         * @example {
         *       "type": "urn:asset-library:problem:validation_failed",
         *       "title": "Validation failed",
         *       "status": 400,
         *       "detail": "The request is not valid.",
         *       "code": "validation_failed",
         *       "errors": [
         *         {
         *           "pointer": "/query/limit",
         *           "detail": "must be >= 1"
         *         }
         *       ]
         *     }
         */
        Problem: {
            /** @description URI naming the kind of problem; stable per `code`. */
            type: string;
            title: string;
            status: number;
            detail?: string;
            /**
             * @description Stable snake_case error code, safe to branch on: one of the catalogue (docs/api-conventions.md, Errors).
             * @enum {string}
             */
            code: "validation_failed" | "malformed_json" | "bad_url" | "bad_request" | "invalid_cursor" | "invalid_figma_url" | "reset_link_invalid" | "organization_required" | "invalid_api_key" | "not_signed_in" | "invalid_credentials" | "insufficient_scope" | "plan_limit_reached" | "current_password_wrong" | "role_required" | "role_not_allowed" | "csrf_token_invalid" | "cross_site_request" | "invalid_signature" | "figma_passcode_invalid" | "not_found" | "thumbnail_unavailable" | "invitation_not_found" | "request_timeout" | "smart_collection_immutable" | "push_conflict" | "restore_conflict" | "concurrent_change" | "webhook_disabled" | "delivery_in_progress" | "idempotency_key_in_use" | "content_belongs_to_other_asset" | "external_id_taken" | "last_owner" | "import_in_progress" | "body_too_large" | "image_too_large" | "share_zip_too_large" | "uri_too_long" | "unsupported_media_type" | "unsupported_charset" | "unsupported_content_encoding" | "range_not_satisfiable" | "not_an_image" | "unsupported_image_format" | "image_too_many_pixels" | "image_truncated" | "svg_script" | "svg_external_reference" | "svg_entity" | "svg_too_complex" | "unknown_asset_type" | "collection_name_taken" | "collection_kind_immutable" | "manual_collection_has_no_query" | "preset_name_taken" | "preset_name_reserved" | "preset_limit_reached" | "slug_taken" | "unknown_event" | "idempotency_key_reused" | "webhook_url_not_https" | "webhook_url_not_public" | "webhook_url_unresolvable" | "webhook_limit_reached" | "figma_not_connected" | "figma_token_invalid" | "figma_file_not_found" | "public_url_required" | "rate_limited" | "headers_too_large" | "internal_error" | "image_fetch_blocked" | "image_fetch_failed" | "figma_unavailable" | "render_busy" | "email_not_configured" | "storage_unavailable";
            errors?: components["schemas"]["FieldProblem"][];
            /**
             * Format: uuid
             * @description With `content_belongs_to_other_asset`: the asset whose bytes these are.
             */
            asset_id?: string;
        };
        /**
         * @description An API key as listed: never its secret.
         * @example {
         *       "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
         *       "name": "ci",
         *       "prefix": "k3v9x2qa",
         *       "scope": "assets:read",
         *       "created_at": "2026-11-21T10:00:00.000Z",
         *       "expires_at": null,
         *       "last_used_at": "2026-11-21T10:05:00.000Z",
         *       "revoked_at": null,
         *       "limit_expensive": null,
         *       "limit_cheap": null
         *     }
         */
        ApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description Public part of the key, shown in listings: `al_<prefix>_…`. */
            prefix: string;
            /**
             * @description `assets:read`: the GET endpoints and search. `assets:write`: everything.
             * @enum {string}
             */
            scope: "assets:read" | "assets:write";
            /** Format: date-time */
            created_at: string;
            /** @description When the key stops working; null for never. */
            expires_at: null | string;
            /** @description Last use, recorded at most once a minute. */
            last_used_at: null | string;
            /** @description When the key was revoked; null while active. */
            revoked_at: null | string;
            /** @description The key’s own limit per window (a minute by default) in the `expensive` bucket, for bulk imports; null: the server’s (30 by default). At most 10,000. */
            limit_expensive: null | number;
            /** @description The key’s own limit per window (a minute by default) in the `cheap` bucket, for bulk imports; null: the server’s (120 by default). At most 10,000. */
            limit_cheap: null | number;
        };
        /**
         * @description The calling API key and the organization it belongs to.
         * @example {
         *       "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
         *       "name": "ci",
         *       "prefix": "k3v9x2qa",
         *       "scope": "assets:write",
         *       "created_at": "2026-11-21T10:00:00.000Z",
         *       "expires_at": "2027-02-19T10:00:00.000Z",
         *       "last_used_at": "2026-11-21T10:05:00.000Z",
         *       "revoked_at": null,
         *       "limit_expensive": 600,
         *       "limit_cheap": null,
         *       "organization": {
         *         "id": "0193a5b2-6b00-7000-8000-000000000001",
         *         "name": "Acme Design",
         *         "slug": "acme-design"
         *       },
         *       "rate_limits": {
         *         "expensive": 600,
         *         "cheap": 120,
         *         "standard": 60,
         *         "window_seconds": 60
         *       }
         *     }
         */
        CurrentApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description Public part of the key, shown in listings: `al_<prefix>_…`. */
            prefix: string;
            /**
             * @description `assets:read`: the GET endpoints and search. `assets:write`: everything.
             * @enum {string}
             */
            scope: "assets:read" | "assets:write";
            /** Format: date-time */
            created_at: string;
            /** @description When the key stops working; null for never. */
            expires_at: null | string;
            /** @description Last use, recorded at most once a minute. */
            last_used_at: null | string;
            /** @description When the key was revoked; null while active. */
            revoked_at: null | string;
            /** @description The key’s own limit per window (a minute by default) in the `expensive` bucket, for bulk imports; null: the server’s (30 by default). At most 10,000. */
            limit_expensive: null | number;
            /** @description The key’s own limit per window (a minute by default) in the `cheap` bucket, for bulk imports; null: the server’s (120 by default). At most 10,000. */
            limit_cheap: null | number;
            organization: {
                /** Format: uuid */
                id: string;
                name: string;
                slug: string;
            };
            /** @description The limits this key gets, as the `X-RateLimit-Limit` header states them. */
            rate_limits: {
                /** @description Requests per window in the `expensive` bucket: the key’s own limit, or the server’s. */
                expensive: number;
                /** @description Requests per window in the `cheap` bucket: the key’s own limit, or the server’s. */
                cheap: number;
                /** @description Requests per window in the `standard` bucket (the server’s). */
                standard: number;
                /** @description The length of a window, in seconds (60 by default). */
                window_seconds: number;
            };
        };
        Asset: {
            /** Format: uuid */
            id: string;
            title: string;
            asset_type: null | string;
            client: null | string;
            product: null | string;
            tags: string[];
            source_url: null | string;
            created_by_ai: boolean;
            /** @description Read from the bytes, never from a header or file name. */
            mime_type: string;
            width: number;
            height: number;
            byte_size: number;
            /** @description SHA-256 of the image bytes; two pushes of the same bytes are one asset. */
            sha256: string;
            /** @description Signed URL of a WebP thumbnail (longest side 512 px), valid about 24 hours: fetch it again rather than storing it. Valid from the push’s answer on: a thumbnail not made yet is made when first asked for. 404 `thumbnail_unavailable` when `thumbnail_status` is `failed`. */
            thumbnail_url: string;
            /** Format: date-time */
            thumbnail_expires_at: string;
            /** @description `available`: `thumbnail_url` serves the thumbnail (made after the push answered, in the background or when first asked for). `failed`: the image passed the push’s checks (its header, and its structure whole to its end) but its pixel data could not be decoded (corrupt); the asset and its original stay as pushed. */
            thumbnail_status: "available" | "failed";
            /** @description Why the thumbnail failed; null unless `thumbnail_status` is `failed`. */
            thumbnail_failure: null | string;
            /** @description Signed URL of the original image, valid as long as thumbnail_url. */
            original_url: string;
            /** @description A signed URL for every preset (GET /api/v1/presets), by name, valid as long as thumbnail_url: `thumbnail` and `original` (the same links as `thumbnail_url` and `original_url`), then the organization’s own presets, each the current version’s rendition in the preset’s size and format (made when first fetched). In the trash, the built-ins only. */
            renditions: {
                thumbnail: string;
                original: string;
            } & {
                [key: string]: string;
            };
            /** @description 1 at the push, one more for each new file (POST /api/v1/assets/{id}/versions, or a push with a known `external_id`). The file facts above are the current version’s. */
            version: number;
            /** @description The asset’s id in the system it came from (`figma:KEY:1-23`, `path:brand/logo.svg`); unique among the organization’s live assets. */
            external_id: null | string;
            /** @description Manual collections holding the asset. */
            collections: {
                /** Format: uuid */
                id: string;
                name: string;
            }[];
            /** @description Up to 5 live assets whose picture is nearly the same (perceptual hash within `NEAR_DUPLICATE_DISTANCE`, 6 by default), closest first. Null while the current file’s hash is being made (after the push answers); empty when there are none, the image cannot be decoded, or it is too plain to compare (one flat colour: fewer than 8 of the hash’s 64 comparisons of neighbours differ). */
            near_duplicates: null | {
                /** Format: uuid */
                asset_id: string;
                /** @description Bits that differ between the two 64-bit perceptual hashes; 0 is the same picture. */
                distance: number;
            }[];
            /** @description Up to 6 dominant colours of the current file, most used first; transparent pixels do not count. Null until made (after the push answers); empty when the image has no opaque pixel or cannot be decoded. */
            colors: null | {
                /** @description Lowercase `#rrggbb`. */
                hex: string;
                /** @description Its share of the opaque pixels. */
                share: number;
                /**
                 * @description The nearest of the named colours (GET /api/v1/colors), in CIELAB.
                 * @enum {string}
                 */
                name: "red" | "orange" | "yellow" | "green" | "teal" | "blue" | "purple" | "pink" | "brown" | "black" | "gray" | "white";
            }[];
            /** @description What the current file’s embedded EXIF, IPTC and XMP say. Null until read (after the push answers). */
            metadata: null | {
                /** @description EXIF orientation; `width` and `height` are the sides after it. */
                orientation: null | number;
                /** @description When the picture was taken, as the file says (ISO 8601; with an offset only when the file gives one). */
                captured_at: null | string;
                camera_make: null | string;
                camera_model: null | string;
                lens: null | string;
                creator: null | string;
                copyright: null | string;
                /** @description The credit line (IPTC Credit). */
                credit: null | string;
                title: null | string;
                description: null | string;
                /** @description IPTC and XMP keywords. */
                keywords: string[];
                /** @description Where the picture was taken; null unless the instance sets `EXPOSE_GPS=true`. */
                gps: null | {
                    latitude: number;
                    longitude: number;
                    altitude: null | number;
                };
            };
            /** @description What the current file says of who or what made it, whatever `created_by_ai` says. Null until read (after the push answers). */
            provenance: null | {
                /**
                 * @description The origin the file declares, in its XMP (IPTC digital source type) or its C2PA manifest’s actions: `ai` (`trainedAlgorithmicMedia`), `ai_composite` (`compositeWithTrainedAlgorithmicMedia`), `capture` (`digitalCapture` and other captures from real life), `edited` (any other type: made or changed by people or non-AI software; or a valid manifest recording edits), `unknown` (none). When the file says several things, the one furthest towards AI wins; an invalid manifest’s claims count only when they say AI.
                 * @enum {string}
                 */
                source: "ai" | "ai_composite" | "capture" | "edited" | "unknown";
                /** @description The file’s C2PA manifest; null when it has none of its own (a manifest stored elsewhere is not fetched). */
                c2pa: null | {
                    /** @description The tool that made the manifest. */
                    claim_generator: null | string;
                    /** @description The signing certificate’s subject (organization). */
                    signed_by: null | string;
                    /** @description Whether the manifest’s signature and hashes check out; false too when it cannot be read (then the other two are null). Not a statement of trust: no trust list is configured. */
                    valid: boolean;
                };
            };
            /** @description Who pushed it: an API key (`kind: "key"`, the key’s name) or a signed-in user (`kind: "user"`, their display name), as it was at the push; a Figma import’s assets name whoever started the import. Null for assets pushed with a key before this was recorded. */
            created_by: null | {
                kind: "key" | "user";
                /** @description The API key’s name, or the user’s display name (their email when they gave none), at the time. */
                name: string;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description An asset in the trash: its record as it was when deleted, and when, by whom and until when. */
        TrashedAsset: {
            /** Format: uuid */
            id: string;
            title: string;
            asset_type: null | string;
            client: null | string;
            product: null | string;
            tags: string[];
            source_url: null | string;
            created_by_ai: boolean;
            /** @description Read from the bytes, never from a header or file name. */
            mime_type: string;
            width: number;
            height: number;
            byte_size: number;
            /** @description SHA-256 of the image bytes; two pushes of the same bytes are one asset. */
            sha256: string;
            /** @description Signed URL of a WebP thumbnail (longest side 512 px), valid about 24 hours: fetch it again rather than storing it. Valid from the push’s answer on: a thumbnail not made yet is made when first asked for. 404 `thumbnail_unavailable` when `thumbnail_status` is `failed`. */
            thumbnail_url: string;
            /** Format: date-time */
            thumbnail_expires_at: string;
            /** @description `available`: `thumbnail_url` serves the thumbnail (made after the push answered, in the background or when first asked for). `failed`: the image passed the push’s checks (its header, and its structure whole to its end) but its pixel data could not be decoded (corrupt); the asset and its original stay as pushed. */
            thumbnail_status: "available" | "failed";
            /** @description Why the thumbnail failed; null unless `thumbnail_status` is `failed`. */
            thumbnail_failure: null | string;
            /** @description Signed URL of the original image, valid as long as thumbnail_url. */
            original_url: string;
            /** @description A signed URL for every preset (GET /api/v1/presets), by name, valid as long as thumbnail_url: `thumbnail` and `original` (the same links as `thumbnail_url` and `original_url`), then the organization’s own presets, each the current version’s rendition in the preset’s size and format (made when first fetched). In the trash, the built-ins only. */
            renditions: {
                thumbnail: string;
                original: string;
            } & {
                [key: string]: string;
            };
            /** @description 1 at the push, one more for each new file (POST /api/v1/assets/{id}/versions, or a push with a known `external_id`). The file facts above are the current version’s. */
            version: number;
            /** @description The asset’s id in the system it came from (`figma:KEY:1-23`, `path:brand/logo.svg`); unique among the organization’s live assets. */
            external_id: null | string;
            /** @description Manual collections holding the asset. */
            collections: {
                /** Format: uuid */
                id: string;
                name: string;
            }[];
            /** @description Up to 5 live assets whose picture is nearly the same (perceptual hash within `NEAR_DUPLICATE_DISTANCE`, 6 by default), closest first. Null while the current file’s hash is being made (after the push answers); empty when there are none, the image cannot be decoded, or it is too plain to compare (one flat colour: fewer than 8 of the hash’s 64 comparisons of neighbours differ). */
            near_duplicates: null | {
                /** Format: uuid */
                asset_id: string;
                /** @description Bits that differ between the two 64-bit perceptual hashes; 0 is the same picture. */
                distance: number;
            }[];
            /** @description Up to 6 dominant colours of the current file, most used first; transparent pixels do not count. Null until made (after the push answers); empty when the image has no opaque pixel or cannot be decoded. */
            colors: null | {
                /** @description Lowercase `#rrggbb`. */
                hex: string;
                /** @description Its share of the opaque pixels. */
                share: number;
                /**
                 * @description The nearest of the named colours (GET /api/v1/colors), in CIELAB.
                 * @enum {string}
                 */
                name: "red" | "orange" | "yellow" | "green" | "teal" | "blue" | "purple" | "pink" | "brown" | "black" | "gray" | "white";
            }[];
            /** @description What the current file’s embedded EXIF, IPTC and XMP say. Null until read (after the push answers). */
            metadata: null | {
                /** @description EXIF orientation; `width` and `height` are the sides after it. */
                orientation: null | number;
                /** @description When the picture was taken, as the file says (ISO 8601; with an offset only when the file gives one). */
                captured_at: null | string;
                camera_make: null | string;
                camera_model: null | string;
                lens: null | string;
                creator: null | string;
                copyright: null | string;
                /** @description The credit line (IPTC Credit). */
                credit: null | string;
                title: null | string;
                description: null | string;
                /** @description IPTC and XMP keywords. */
                keywords: string[];
                /** @description Where the picture was taken; null unless the instance sets `EXPOSE_GPS=true`. */
                gps: null | {
                    latitude: number;
                    longitude: number;
                    altitude: null | number;
                };
            };
            /** @description What the current file says of who or what made it, whatever `created_by_ai` says. Null until read (after the push answers). */
            provenance: null | {
                /**
                 * @description The origin the file declares, in its XMP (IPTC digital source type) or its C2PA manifest’s actions: `ai` (`trainedAlgorithmicMedia`), `ai_composite` (`compositeWithTrainedAlgorithmicMedia`), `capture` (`digitalCapture` and other captures from real life), `edited` (any other type: made or changed by people or non-AI software; or a valid manifest recording edits), `unknown` (none). When the file says several things, the one furthest towards AI wins; an invalid manifest’s claims count only when they say AI.
                 * @enum {string}
                 */
                source: "ai" | "ai_composite" | "capture" | "edited" | "unknown";
                /** @description The file’s C2PA manifest; null when it has none of its own (a manifest stored elsewhere is not fetched). */
                c2pa: null | {
                    /** @description The tool that made the manifest. */
                    claim_generator: null | string;
                    /** @description The signing certificate’s subject (organization). */
                    signed_by: null | string;
                    /** @description Whether the manifest’s signature and hashes check out; false too when it cannot be read (then the other two are null). Not a statement of trust: no trust list is configured. */
                    valid: boolean;
                };
            };
            /** @description Who pushed it: an API key (`kind: "key"`, the key’s name) or a signed-in user (`kind: "user"`, their display name), as it was at the push; a Figma import’s assets name whoever started the import. Null for assets pushed with a key before this was recorded. */
            created_by: null | {
                kind: "key" | "user";
                /** @description The API key’s name, or the user’s display name (their email when they gave none), at the time. */
                name: string;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            deleted_at: string;
            /**
             * Format: date-time
             * @description When the purge removes it for good, unless it is restored before (`TRASH_RETENTION_DAYS` after `deleted_at`).
             */
            purge_at: string;
            /** @description Who deleted it. */
            deleted_by: {
                kind: "key" | "user";
                /** @description The API key’s name, or the user’s display name (their email when they gave none), at the time. */
                name: string;
            };
        };
        /**
         * @description The filters of GET /api/v1/assets, and optionally the order (`sort`) the collection lists its assets in; the collection holds whatever matches, evaluated when read.
         * @example {
         *       "tag": "summer",
         *       "client": "Initech"
         *     }
         */
        AssetQuery: {
            /** @description Exact asset type, case-insensitive. */
            asset_type?: string;
            /** @description Exact client, case-insensitive. */
            client?: string;
            /** @description Exact product, case-insensitive. */
            product?: string;
            /** @description Assets carrying this tag, case-insensitive. */
            tag?: string;
            /** @description Assets carrying a tag that starts with this text, case-insensitive (`%` and `_` are plain characters). */
            tag_prefix?: string;
            /** @description Full-text search over title, tags, type, client and product (web-search syntax: "quoted", or, -not). */
            q?: string;
            /**
             * @description Assets whose palette has a colour of this name (see `GET /api/v1/colors`); assets not yet analysed match no colour.
             * @enum {string}
             */
            color?: "red" | "orange" | "yellow" | "green" | "teal" | "blue" | "purple" | "pink" | "brown" | "black" | "gray" | "white";
            /**
             * @description Assets whose file declares this origin (`provenance.source`); assets not yet read match none.
             * @enum {string}
             */
            provenance?: "ai" | "ai_composite" | "capture" | "edited" | "unknown";
            /**
             * @description The order, `-created_at` (newest first) when absent: `created_at`, `title` (case-insensitive, by character code; an empty title first), `byte_size` or `updated_at`; `-` before the key for descending. Ties are broken by `id` in the same direction, so offset paging is stable.
             * @enum {string}
             */
            sort?: "created_at" | "-created_at" | "title" | "-title" | "byte_size" | "-byte_size" | "updated_at" | "-updated_at";
        };
        Collection: {
            /** Format: uuid */
            id: string;
            name: string;
            description: string;
            kind: "manual" | "smart";
            /** @description Smart collections only. */
            query: null | components["schemas"]["AssetQuery"];
            asset_count: number;
            /** @description Has a public link. */
            shared: boolean;
            shared_at: null | string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        SearchHit: {
            /** Format: uuid */
            id: string;
            title: string;
            asset_type: null | string;
            client: null | string;
            product: null | string;
            tags: string[];
            source_url: null | string;
            created_by_ai: boolean;
            /** @description Read from the bytes, never from a header or file name. */
            mime_type: string;
            width: number;
            height: number;
            byte_size: number;
            /** @description SHA-256 of the image bytes; two pushes of the same bytes are one asset. */
            sha256: string;
            /** @description Signed URL of a WebP thumbnail (longest side 512 px), valid about 24 hours: fetch it again rather than storing it. Valid from the push’s answer on: a thumbnail not made yet is made when first asked for. 404 `thumbnail_unavailable` when `thumbnail_status` is `failed`. */
            thumbnail_url: string;
            /** Format: date-time */
            thumbnail_expires_at: string;
            /** @description `available`: `thumbnail_url` serves the thumbnail (made after the push answered, in the background or when first asked for). `failed`: the image passed the push’s checks (its header, and its structure whole to its end) but its pixel data could not be decoded (corrupt); the asset and its original stay as pushed. */
            thumbnail_status: "available" | "failed";
            /** @description Why the thumbnail failed; null unless `thumbnail_status` is `failed`. */
            thumbnail_failure: null | string;
            /** @description Signed URL of the original image, valid as long as thumbnail_url. */
            original_url: string;
            /** @description A signed URL for every preset (GET /api/v1/presets), by name, valid as long as thumbnail_url: `thumbnail` and `original` (the same links as `thumbnail_url` and `original_url`), then the organization’s own presets, each the current version’s rendition in the preset’s size and format (made when first fetched). In the trash, the built-ins only. */
            renditions: {
                thumbnail: string;
                original: string;
            } & {
                [key: string]: string;
            };
            /** @description 1 at the push, one more for each new file (POST /api/v1/assets/{id}/versions, or a push with a known `external_id`). The file facts above are the current version’s. */
            version: number;
            /** @description The asset’s id in the system it came from (`figma:KEY:1-23`, `path:brand/logo.svg`); unique among the organization’s live assets. */
            external_id: null | string;
            /** @description Manual collections holding the asset. */
            collections: {
                /** Format: uuid */
                id: string;
                name: string;
            }[];
            /** @description Up to 5 live assets whose picture is nearly the same (perceptual hash within `NEAR_DUPLICATE_DISTANCE`, 6 by default), closest first. Null while the current file’s hash is being made (after the push answers); empty when there are none, the image cannot be decoded, or it is too plain to compare (one flat colour: fewer than 8 of the hash’s 64 comparisons of neighbours differ). */
            near_duplicates: null | {
                /** Format: uuid */
                asset_id: string;
                /** @description Bits that differ between the two 64-bit perceptual hashes; 0 is the same picture. */
                distance: number;
            }[];
            /** @description Up to 6 dominant colours of the current file, most used first; transparent pixels do not count. Null until made (after the push answers); empty when the image has no opaque pixel or cannot be decoded. */
            colors: null | {
                /** @description Lowercase `#rrggbb`. */
                hex: string;
                /** @description Its share of the opaque pixels. */
                share: number;
                /**
                 * @description The nearest of the named colours (GET /api/v1/colors), in CIELAB.
                 * @enum {string}
                 */
                name: "red" | "orange" | "yellow" | "green" | "teal" | "blue" | "purple" | "pink" | "brown" | "black" | "gray" | "white";
            }[];
            /** @description What the current file’s embedded EXIF, IPTC and XMP say. Null until read (after the push answers). */
            metadata: null | {
                /** @description EXIF orientation; `width` and `height` are the sides after it. */
                orientation: null | number;
                /** @description When the picture was taken, as the file says (ISO 8601; with an offset only when the file gives one). */
                captured_at: null | string;
                camera_make: null | string;
                camera_model: null | string;
                lens: null | string;
                creator: null | string;
                copyright: null | string;
                /** @description The credit line (IPTC Credit). */
                credit: null | string;
                title: null | string;
                description: null | string;
                /** @description IPTC and XMP keywords. */
                keywords: string[];
                /** @description Where the picture was taken; null unless the instance sets `EXPOSE_GPS=true`. */
                gps: null | {
                    latitude: number;
                    longitude: number;
                    altitude: null | number;
                };
            };
            /** @description What the current file says of who or what made it, whatever `created_by_ai` says. Null until read (after the push answers). */
            provenance: null | {
                /**
                 * @description The origin the file declares, in its XMP (IPTC digital source type) or its C2PA manifest’s actions: `ai` (`trainedAlgorithmicMedia`), `ai_composite` (`compositeWithTrainedAlgorithmicMedia`), `capture` (`digitalCapture` and other captures from real life), `edited` (any other type: made or changed by people or non-AI software; or a valid manifest recording edits), `unknown` (none). When the file says several things, the one furthest towards AI wins; an invalid manifest’s claims count only when they say AI.
                 * @enum {string}
                 */
                source: "ai" | "ai_composite" | "capture" | "edited" | "unknown";
                /** @description The file’s C2PA manifest; null when it has none of its own (a manifest stored elsewhere is not fetched). */
                c2pa: null | {
                    /** @description The tool that made the manifest. */
                    claim_generator: null | string;
                    /** @description The signing certificate’s subject (organization). */
                    signed_by: null | string;
                    /** @description Whether the manifest’s signature and hashes check out; false too when it cannot be read (then the other two are null). Not a statement of trust: no trust list is configured. */
                    valid: boolean;
                };
            };
            /** @description Who pushed it: an API key (`kind: "key"`, the key’s name) or a signed-in user (`kind: "user"`, their display name), as it was at the push; a Figma import’s assets name whoever started the import. Null for assets pushed with a key before this was recorded. */
            created_by: null | {
                kind: "key" | "user";
                /** @description The API key’s name, or the user’s display name (their email when they gave none), at the time. */
                name: string;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description 0.4 × text_score + 0.6 × semantic_score; hits are sorted by it. */
            score: number;
            /** @description Full-text rank (ts_rank_cd, normalised into [0, 1)); 0 when the text does not match. */
            text_score: number;
            /** @description Cosine similarity of the query and the asset (its picture’s embedding with an image model, else its text’s), clamped to [0, 1]; 0 in text mode or when the asset has no embedding yet. */
            semantic_score: number;
        };
        SimilarAsset: {
            /** Format: uuid */
            id: string;
            title: string;
            asset_type: null | string;
            client: null | string;
            product: null | string;
            tags: string[];
            source_url: null | string;
            created_by_ai: boolean;
            /** @description Read from the bytes, never from a header or file name. */
            mime_type: string;
            width: number;
            height: number;
            byte_size: number;
            /** @description SHA-256 of the image bytes; two pushes of the same bytes are one asset. */
            sha256: string;
            /** @description Signed URL of a WebP thumbnail (longest side 512 px), valid about 24 hours: fetch it again rather than storing it. Valid from the push’s answer on: a thumbnail not made yet is made when first asked for. 404 `thumbnail_unavailable` when `thumbnail_status` is `failed`. */
            thumbnail_url: string;
            /** Format: date-time */
            thumbnail_expires_at: string;
            /** @description `available`: `thumbnail_url` serves the thumbnail (made after the push answered, in the background or when first asked for). `failed`: the image passed the push’s checks (its header, and its structure whole to its end) but its pixel data could not be decoded (corrupt); the asset and its original stay as pushed. */
            thumbnail_status: "available" | "failed";
            /** @description Why the thumbnail failed; null unless `thumbnail_status` is `failed`. */
            thumbnail_failure: null | string;
            /** @description Signed URL of the original image, valid as long as thumbnail_url. */
            original_url: string;
            /** @description A signed URL for every preset (GET /api/v1/presets), by name, valid as long as thumbnail_url: `thumbnail` and `original` (the same links as `thumbnail_url` and `original_url`), then the organization’s own presets, each the current version’s rendition in the preset’s size and format (made when first fetched). In the trash, the built-ins only. */
            renditions: {
                thumbnail: string;
                original: string;
            } & {
                [key: string]: string;
            };
            /** @description 1 at the push, one more for each new file (POST /api/v1/assets/{id}/versions, or a push with a known `external_id`). The file facts above are the current version’s. */
            version: number;
            /** @description The asset’s id in the system it came from (`figma:KEY:1-23`, `path:brand/logo.svg`); unique among the organization’s live assets. */
            external_id: null | string;
            /** @description Manual collections holding the asset. */
            collections: {
                /** Format: uuid */
                id: string;
                name: string;
            }[];
            /** @description Up to 5 live assets whose picture is nearly the same (perceptual hash within `NEAR_DUPLICATE_DISTANCE`, 6 by default), closest first. Null while the current file’s hash is being made (after the push answers); empty when there are none, the image cannot be decoded, or it is too plain to compare (one flat colour: fewer than 8 of the hash’s 64 comparisons of neighbours differ). */
            near_duplicates: null | {
                /** Format: uuid */
                asset_id: string;
                /** @description Bits that differ between the two 64-bit perceptual hashes; 0 is the same picture. */
                distance: number;
            }[];
            /** @description Up to 6 dominant colours of the current file, most used first; transparent pixels do not count. Null until made (after the push answers); empty when the image has no opaque pixel or cannot be decoded. */
            colors: null | {
                /** @description Lowercase `#rrggbb`. */
                hex: string;
                /** @description Its share of the opaque pixels. */
                share: number;
                /**
                 * @description The nearest of the named colours (GET /api/v1/colors), in CIELAB.
                 * @enum {string}
                 */
                name: "red" | "orange" | "yellow" | "green" | "teal" | "blue" | "purple" | "pink" | "brown" | "black" | "gray" | "white";
            }[];
            /** @description What the current file’s embedded EXIF, IPTC and XMP say. Null until read (after the push answers). */
            metadata: null | {
                /** @description EXIF orientation; `width` and `height` are the sides after it. */
                orientation: null | number;
                /** @description When the picture was taken, as the file says (ISO 8601; with an offset only when the file gives one). */
                captured_at: null | string;
                camera_make: null | string;
                camera_model: null | string;
                lens: null | string;
                creator: null | string;
                copyright: null | string;
                /** @description The credit line (IPTC Credit). */
                credit: null | string;
                title: null | string;
                description: null | string;
                /** @description IPTC and XMP keywords. */
                keywords: string[];
                /** @description Where the picture was taken; null unless the instance sets `EXPOSE_GPS=true`. */
                gps: null | {
                    latitude: number;
                    longitude: number;
                    altitude: null | number;
                };
            };
            /** @description What the current file says of who or what made it, whatever `created_by_ai` says. Null until read (after the push answers). */
            provenance: null | {
                /**
                 * @description The origin the file declares, in its XMP (IPTC digital source type) or its C2PA manifest’s actions: `ai` (`trainedAlgorithmicMedia`), `ai_composite` (`compositeWithTrainedAlgorithmicMedia`), `capture` (`digitalCapture` and other captures from real life), `edited` (any other type: made or changed by people or non-AI software; or a valid manifest recording edits), `unknown` (none). When the file says several things, the one furthest towards AI wins; an invalid manifest’s claims count only when they say AI.
                 * @enum {string}
                 */
                source: "ai" | "ai_composite" | "capture" | "edited" | "unknown";
                /** @description The file’s C2PA manifest; null when it has none of its own (a manifest stored elsewhere is not fetched). */
                c2pa: null | {
                    /** @description The tool that made the manifest. */
                    claim_generator: null | string;
                    /** @description The signing certificate’s subject (organization). */
                    signed_by: null | string;
                    /** @description Whether the manifest’s signature and hashes check out; false too when it cannot be read (then the other two are null). Not a statement of trust: no trust list is configured. */
                    valid: boolean;
                };
            };
            /** @description Who pushed it: an API key (`kind: "key"`, the key’s name) or a signed-in user (`kind: "user"`, their display name), as it was at the push; a Figma import’s assets name whoever started the import. Null for assets pushed with a key before this was recorded. */
            created_by: null | {
                kind: "key" | "user";
                /** @description The API key’s name, or the user’s display name (their email when they gave none), at the time. */
                name: string;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description Cosine similarity with the asset asked about, clamped to [0, 1]. */
            semantic_score: number;
        };
        LookalikeAsset: {
            /** Format: uuid */
            id: string;
            title: string;
            asset_type: null | string;
            client: null | string;
            product: null | string;
            tags: string[];
            source_url: null | string;
            created_by_ai: boolean;
            /** @description Read from the bytes, never from a header or file name. */
            mime_type: string;
            width: number;
            height: number;
            byte_size: number;
            /** @description SHA-256 of the image bytes; two pushes of the same bytes are one asset. */
            sha256: string;
            /** @description Signed URL of a WebP thumbnail (longest side 512 px), valid about 24 hours: fetch it again rather than storing it. Valid from the push’s answer on: a thumbnail not made yet is made when first asked for. 404 `thumbnail_unavailable` when `thumbnail_status` is `failed`. */
            thumbnail_url: string;
            /** Format: date-time */
            thumbnail_expires_at: string;
            /** @description `available`: `thumbnail_url` serves the thumbnail (made after the push answered, in the background or when first asked for). `failed`: the image passed the push’s checks (its header, and its structure whole to its end) but its pixel data could not be decoded (corrupt); the asset and its original stay as pushed. */
            thumbnail_status: "available" | "failed";
            /** @description Why the thumbnail failed; null unless `thumbnail_status` is `failed`. */
            thumbnail_failure: null | string;
            /** @description Signed URL of the original image, valid as long as thumbnail_url. */
            original_url: string;
            /** @description A signed URL for every preset (GET /api/v1/presets), by name, valid as long as thumbnail_url: `thumbnail` and `original` (the same links as `thumbnail_url` and `original_url`), then the organization’s own presets, each the current version’s rendition in the preset’s size and format (made when first fetched). In the trash, the built-ins only. */
            renditions: {
                thumbnail: string;
                original: string;
            } & {
                [key: string]: string;
            };
            /** @description 1 at the push, one more for each new file (POST /api/v1/assets/{id}/versions, or a push with a known `external_id`). The file facts above are the current version’s. */
            version: number;
            /** @description The asset’s id in the system it came from (`figma:KEY:1-23`, `path:brand/logo.svg`); unique among the organization’s live assets. */
            external_id: null | string;
            /** @description Manual collections holding the asset. */
            collections: {
                /** Format: uuid */
                id: string;
                name: string;
            }[];
            /** @description Up to 5 live assets whose picture is nearly the same (perceptual hash within `NEAR_DUPLICATE_DISTANCE`, 6 by default), closest first. Null while the current file’s hash is being made (after the push answers); empty when there are none, the image cannot be decoded, or it is too plain to compare (one flat colour: fewer than 8 of the hash’s 64 comparisons of neighbours differ). */
            near_duplicates: null | {
                /** Format: uuid */
                asset_id: string;
                /** @description Bits that differ between the two 64-bit perceptual hashes; 0 is the same picture. */
                distance: number;
            }[];
            /** @description Up to 6 dominant colours of the current file, most used first; transparent pixels do not count. Null until made (after the push answers); empty when the image has no opaque pixel or cannot be decoded. */
            colors: null | {
                /** @description Lowercase `#rrggbb`. */
                hex: string;
                /** @description Its share of the opaque pixels. */
                share: number;
                /**
                 * @description The nearest of the named colours (GET /api/v1/colors), in CIELAB.
                 * @enum {string}
                 */
                name: "red" | "orange" | "yellow" | "green" | "teal" | "blue" | "purple" | "pink" | "brown" | "black" | "gray" | "white";
            }[];
            /** @description What the current file’s embedded EXIF, IPTC and XMP say. Null until read (after the push answers). */
            metadata: null | {
                /** @description EXIF orientation; `width` and `height` are the sides after it. */
                orientation: null | number;
                /** @description When the picture was taken, as the file says (ISO 8601; with an offset only when the file gives one). */
                captured_at: null | string;
                camera_make: null | string;
                camera_model: null | string;
                lens: null | string;
                creator: null | string;
                copyright: null | string;
                /** @description The credit line (IPTC Credit). */
                credit: null | string;
                title: null | string;
                description: null | string;
                /** @description IPTC and XMP keywords. */
                keywords: string[];
                /** @description Where the picture was taken; null unless the instance sets `EXPOSE_GPS=true`. */
                gps: null | {
                    latitude: number;
                    longitude: number;
                    altitude: null | number;
                };
            };
            /** @description What the current file says of who or what made it, whatever `created_by_ai` says. Null until read (after the push answers). */
            provenance: null | {
                /**
                 * @description The origin the file declares, in its XMP (IPTC digital source type) or its C2PA manifest’s actions: `ai` (`trainedAlgorithmicMedia`), `ai_composite` (`compositeWithTrainedAlgorithmicMedia`), `capture` (`digitalCapture` and other captures from real life), `edited` (any other type: made or changed by people or non-AI software; or a valid manifest recording edits), `unknown` (none). When the file says several things, the one furthest towards AI wins; an invalid manifest’s claims count only when they say AI.
                 * @enum {string}
                 */
                source: "ai" | "ai_composite" | "capture" | "edited" | "unknown";
                /** @description The file’s C2PA manifest; null when it has none of its own (a manifest stored elsewhere is not fetched). */
                c2pa: null | {
                    /** @description The tool that made the manifest. */
                    claim_generator: null | string;
                    /** @description The signing certificate’s subject (organization). */
                    signed_by: null | string;
                    /** @description Whether the manifest’s signature and hashes check out; false too when it cannot be read (then the other two are null). Not a statement of trust: no trust list is configured. */
                    valid: boolean;
                };
            };
            /** @description Who pushed it: an API key (`kind: "key"`, the key’s name) or a signed-in user (`kind: "user"`, their display name), as it was at the push; a Figma import’s assets name whoever started the import. Null for assets pushed with a key before this was recorded. */
            created_by: null | {
                kind: "key" | "user";
                /** @description The API key’s name, or the user’s display name (their email when they gave none), at the time. */
                name: string;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description Bits that differ between this asset’s 64-bit perceptual hash and the one asked about; 0 is the same picture. Near-duplicates are those within `NEAR_DUPLICATE_DISTANCE` (6 by default). */
            distance: number;
        };
        /** @description A live asset and its near-duplicates pushed after it. An asset leads no group when an older near-duplicate of it is near all its newer ones too (the cluster shows once, in the older asset’s group); every near pair is in some group. */
        DuplicateGroup: {
            asset: components["schemas"]["Asset"];
            /** @description The near-duplicates of `asset` pushed after it (created later), closest first. */
            duplicates: {
                /** @description Bits that differ between this asset’s perceptual hash and the group’s `asset`’s. */
                distance: number;
                asset: components["schemas"]["Asset"];
            }[];
        };
        Import: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            source: "figma";
            status: "queued" | "running" | "done" | "failed";
            file_url: string;
            file_key: string;
            /** @description The linked node whose subtree is imported; null for the whole file. */
            node_id: string | null;
            /** @description `frames`: the top-level frames of each page (of the linked node’s subtree when the link has a `node-id`); `components`: the file’s components, and the variants of its component sets; `nodes`: the nodes of `node_ids`. */
            select: "frames" | "components" | "nodes";
            node_ids: string[];
            format: "png" | "svg" | "jpg";
            scale: number;
            /** @description What every asset the import creates gets, besides its title, tags and link. */
            metadata: {
                asset_type: string | null;
                client: string | null;
                product: string | null;
                tag_names: string[];
                collection_name: string | null;
                created_by_ai: boolean;
            };
            /** @description The Figma file’s name, once read. */
            file_name: string | null;
            /** @description The Figma file’s `version` this run read. */
            file_version: string | null;
            /** @description Which run the counts are of: 1, then one more for each rerun. */
            run: number;
            /** @description Nodes this run covers (known once the file is read). */
            total: number;
            created: number;
            /** @description Nodes whose rendering changed: a new version of their asset. */
            updated: number;
            unchanged: number;
            failed: number;
            /** @description Nodes an earlier run imported that the file no longer has; their assets are kept. */
            missing: number;
            failures: {
                node_id: string;
                /** @description The node’s name in Figma. */
                name: string;
                /** @description A code: `render_failed`, `render_expired`, `image_too_large`, `node_not_found`, or the push’s problem code (`svg_script`…). */
                reason: string;
                detail: string;
            }[];
            missing_nodes: {
                node_id: string;
                /** @description The node’s name in Figma. */
                name: string;
                asset_id: string | null;
            }[];
            /** @description Why a `failed` import failed as a whole; null otherwise. */
            error: {
                /** @description `figma_token_invalid`, `figma_file_not_found`, `figma_unavailable`, `figma_not_connected`, or `figma_bad_response`. */
                code: string;
                detail: string;
            } | null;
            created_by: {
                kind: "key" | "user";
                name: string;
            };
            /** Format: date-time */
            created_at: string;
            /** @description When the current run started. */
            started_at: string | null;
            /** @description When the current run ended. */
            finished_at: string | null;
        };
        ImportNode: {
            node_id: string;
            /** @description The node’s name in Figma, as last read (a pushed node: as pushed). */
            name: string;
            /** @description The Figma page the node is on. */
            page_name: string | null;
            /** @description A variant’s component set; null otherwise. */
            component_set_name: string | null;
            /** @description What the current run did with the node: `created` (a new asset), `updated` (a new version of its asset), `unchanged`, `failed` (see `reason`), `missing` (gone from the file; its asset is kept); null while the run has not done it yet. */
            outcome: ("created" | "updated" | "unchanged" | "failed" | "missing") | null;
            /** @description A failed node’s code (`render_failed`, `render_expired`, `image_too_large`, `node_not_found`, or the push’s problem code); null otherwise. */
            reason: string | null;
            /** @description A failed node’s explanation; null otherwise. */
            detail: string | null;
            /** @description The node’s asset, made by this run or an earlier one; null when none was made (or it was purged). */
            asset_id: string | null;
            /** @description Opens the node in Figma. */
            figma_url: string;
        };
        /** @description A named rendition: every asset record links it in `renditions`, and `GET /api/v1/assets/{id}/render?preset=NAME` makes it. */
        Preset: {
            name: string;
            /** @description `thumbnail` and `original`, which every organization has and nobody changes. */
            built_in: boolean;
            width: null | number;
            height: null | number;
            fit: "contain" | "cover" | "inside";
            /** @description Null for `original`: the file as pushed. */
            format: null | "png" | "jpeg" | "webp" | "avif";
            /** @description Null for PNG and for `original`. */
            quality: null | number;
            /** @description `rrggbb` or `rrggbbaa`; null: transparent, white for JPEG. */
            background: null | string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getCurrentKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The calling key. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CurrentApiKey"];
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: called with the web app's session, which has no API key.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeCurrentKey: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key, now revoked. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *       "name": "ci",
                     *       "prefix": "k3v9x2qa",
                     *       "scope": "assets:read",
                     *       "created_at": "2026-11-21T10:00:00.000Z",
                     *       "expires_at": null,
                     *       "last_used_at": "2026-11-21T10:05:00.000Z",
                     *       "revoked_at": "2026-11-21T10:06:00.000Z",
                     *       "limit_expensive": null,
                     *       "limit_cheap": null
                     *     }
                     */
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`. */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: called with the web app's session, which has no API key.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered. */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listTags: {
        parameters: {
            query?: {
                /** @description Only names starting with this, case-insensitively. */
                q?: string;
                /** @description Page size; values above 100 are capped to 100. */
                limit?: number;
                /** @description How many items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of tags. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "name": "summer-campaign",
                     *           "asset_count": 12
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "limit": 50,
                     *       "offset": 0
                     *     }
                     */
                    "application/json": {
                        data: {
                            name: string;
                            asset_count: number;
                        }[];
                        /** @description Items matching, across all pages. */
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listAssetTypes: {
        parameters: {
            query?: {
                /** @description Only names starting with this, case-insensitively. */
                q?: string;
                /** @description Page size; values above 100 are capped to 100. */
                limit?: number;
                /** @description How many items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of names. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "name": "Acme Corp",
                     *           "registered": true,
                     *           "asset_count": 42
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "limit": 50,
                     *       "offset": 0
                     *     }
                     */
                    "application/json": {
                        data: {
                            name: string;
                            /** @description Registered in the organization (through the app), as opposed to only used by assets. */
                            registered: boolean;
                            /** @description Assets that use it. */
                            asset_count: number;
                        }[];
                        /** @description Items matching, across all pages. */
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listClients: {
        parameters: {
            query?: {
                /** @description Only names starting with this, case-insensitively. */
                q?: string;
                /** @description Page size; values above 100 are capped to 100. */
                limit?: number;
                /** @description How many items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of names. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "name": "Acme Corp",
                     *           "registered": true,
                     *           "asset_count": 42
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "limit": 50,
                     *       "offset": 0
                     *     }
                     */
                    "application/json": {
                        data: {
                            name: string;
                            /** @description Registered in the organization (through the app), as opposed to only used by assets. */
                            registered: boolean;
                            /** @description Assets that use it. */
                            asset_count: number;
                        }[];
                        /** @description Items matching, across all pages. */
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listProducts: {
        parameters: {
            query?: {
                /** @description Only names starting with this, case-insensitively. */
                q?: string;
                /** @description Page size; values above 100 are capped to 100. */
                limit?: number;
                /** @description How many items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of names. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "name": "Acme Corp",
                     *           "registered": true,
                     *           "asset_count": 42
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "limit": 50,
                     *       "offset": 0
                     *     }
                     */
                    "application/json": {
                        data: {
                            name: string;
                            /** @description Registered in the organization (through the app), as opposed to only used by assets. */
                            registered: boolean;
                            /** @description Assets that use it. */
                            asset_count: number;
                        }[];
                        /** @description Items matching, across all pages. */
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPresets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The presets. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "name": "thumbnail",
                     *           "built_in": true,
                     *           "width": 512,
                     *           "height": 512,
                     *           "fit": "inside",
                     *           "format": "webp",
                     *           "quality": 80,
                     *           "background": null
                     *         },
                     *         {
                     *           "name": "original",
                     *           "built_in": true,
                     *           "width": null,
                     *           "height": null,
                     *           "fit": "inside",
                     *           "format": null,
                     *           "quality": null,
                     *           "background": null
                     *         },
                     *         {
                     *           "name": "og-image",
                     *           "built_in": false,
                     *           "width": 1200,
                     *           "height": 630,
                     *           "fit": "cover",
                     *           "format": "jpeg",
                     *           "quality": 82,
                     *           "background": null
                     *         },
                     *         {
                     *           "name": "web-1200",
                     *           "built_in": false,
                     *           "width": 1200,
                     *           "height": null,
                     *           "fit": "contain",
                     *           "format": "webp",
                     *           "quality": 80,
                     *           "background": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Preset"][];
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listAssetVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The versions, newest first. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "version": 2,
                     *           "sha256": "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
                     *           "byte_size": 1843200,
                     *           "width": 2400,
                     *           "height": 1200,
                     *           "mime_type": "image/png",
                     *           "created_at": "2026-11-23T10:00:00.000Z",
                     *           "created_by": {
                     *             "kind": "user",
                     *             "name": "Ada Lovelace"
                     *           },
                     *           "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/2/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *           "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/2/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592"
                     *         },
                     *         {
                     *           "version": 1,
                     *           "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *           "byte_size": 1843200,
                     *           "width": 2400,
                     *           "height": 1200,
                     *           "mime_type": "image/png",
                     *           "created_at": "2026-11-21T19:00:00.000Z",
                     *           "created_by": {
                     *             "kind": "key",
                     *             "name": "figma-plugin"
                     *           },
                     *           "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *           "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description Every version, newest first. */
                        data: {
                            version: number;
                            sha256: string;
                            byte_size: number;
                            width: number;
                            height: number;
                            mime_type: string;
                            /**
                             * Format: date-time
                             * @description When this version was added.
                             */
                            created_at: string;
                            /** @description Who added it: an API key or a user, by the name it had then; null for versions from before versions were recorded (pushed with a key). */
                            created_by: null | {
                                kind: "key" | "user";
                                /** @description The API key’s name, or the user’s display name (their email when they gave none), at the time. */
                                name: string;
                            };
                            /** @description Signed URL of this version’s original, valid about 24 hours. */
                            original_url: string;
                            /** @description Signed URL of this version’s thumbnail, valid about 24 hours. */
                            thumbnail_url: string;
                        }[];
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no asset with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    uploadAssetVersion: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Fetched by the service (public addresses only). Give this or image_base64.
                     */
                    image_url?: string;
                    /** @description The image bytes in base64, optionally as a data: URL; at most 25 MiB decoded. Give this or image_url. */
                    image_base64?: string;
                };
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The image file, at most 25 MiB (`curl -F file=@logo.png`). Its format is read from the bytes; the part’s file name and Content-Type are ignored. Give this or image_url.
                     */
                    file?: string;
                    /**
                     * Format: uri
                     * @description Fetched by the service (public addresses only). Give this or a `file` part.
                     */
                    image_url?: string;
                };
            };
        };
        responses: {
            /** @description These bytes are already the asset’s current file. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "asset_id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *       "version": 1,
                     *       "duplicate": true
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        asset_id: string;
                        /** @description The asset’s version now: the new one, or the current one for a duplicate. */
                        version: number;
                        /** @description True when these bytes were already the asset’s current file: nothing changed. */
                        duplicate: boolean;
                    };
                };
            };
            /** @description The new file is the asset’s newest version. */
            201: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "asset_id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *       "version": 2,
                     *       "duplicate": false
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        asset_id: string;
                        /** @description The asset’s version now: the new one, or the current one for a duplicate. */
                        version: number;
                        /** @description True when these bytes were already the asset’s current file: nothing changed. */
                        duplicate: boolean;
                    };
                };
            };
            /**
             * @description - `validation_failed`: not exactly one of `image_url`, `image_base64` and a `file` part, or `image_base64` is not base64.
             *     - `bad_request`: a multipart/form-data body that is cut short or malformed.
             *     - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `plan_limit_reached`: the organization's plan stores no more bytes of images (each version counts).
             *     - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no asset with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `content_belongs_to_other_asset`: the bytes are another asset’s, live or in the trash; the problem’s `asset_id` names it.
             *     - `concurrent_change`: a concurrent request made the same change.
             *     - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered.
             */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `image_too_large`: the image is over 25 MiB, inline, uploaded or fetched; an upload is refused as soon as it passes the cap.
             *     - `body_too_large`: a form with more parts than a push has.
             *     - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise).
             */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is neither `application/json` nor `multipart/form-data`.
             *     - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_an_image`: the bytes are not an image, or an SVG that is not well-formed XML.
             *     - `unsupported_image_format`: an image format we do not accept (HEIC), or an SVG in UTF-16, in another declared encoding than UTF-8, or gzip-compressed (`.svgz`).
             *     - `image_too_many_pixels`: an image with more pixels than we decode.
             *     - `svg_script`: an SVG with a `<script>`, an event attribute (`on…`), a `<foreignObject>` or an HTML element; refused, never stripped.
             *     - `svg_external_reference`: an SVG with an `href` or CSS `url()` to anything but `#id` or a base64 `data:image/…`, an `@import`, an `<?xml-stylesheet?>` or XInclude.
             *     - `svg_entity`: an SVG with a DOCTYPE (entities are refused, not expanded).
             *     - `svg_too_complex`: an SVG with over 100,000 elements, nesting over 256, over 1,000 `data:` images, or an embedded `data:` image that fails a pushed image’s checks (the message names it); an embedded SVG.
             *     - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body.
             */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `image_fetch_blocked`: `image_url` refused by the outbound guard: not a valid http or https URL, with a user name or password, or to a private address.
             *     - `image_fetch_failed`: `image_url` could not be fetched: the host was unreachable, answered an error status, redirected too often or was too slow.
             */
            502: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `storage_unavailable`: the file storage (the S3 bucket) cannot be reached; nothing is stored, push again later. */
            503: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    restoreAssetVersion: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description That version’s bytes are already current. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "asset_id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *       "version": 3,
                     *       "duplicate": true
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        asset_id: string;
                        /** @description The asset’s version now: the copy just made (the previous newest plus one), or the current one when that version was already current. */
                        version: number;
                        /** @description True when the version restored was already the current one (same bytes): nothing changed. */
                        duplicate: boolean;
                    };
                };
            };
            /** @description The copy is the newest version. */
            201: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "asset_id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *       "version": 4,
                     *       "duplicate": false
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        asset_id: string;
                        /** @description The asset’s version now: the copy just made (the previous newest plus one), or the current one when that version was already current. */
                        version: number;
                        /** @description True when the version restored was already the current one (same bytes): nothing changed. */
                        duplicate: boolean;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `plan_limit_reached`: the organization's plan stores no more bytes of images (each version counts).
             *     - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no asset with this id in your organization, or it has no such version.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `content_belongs_to_other_asset`: the bytes are another asset’s, live or in the trash; the problem’s `asset_id` names it.
             *     - `concurrent_change`: a concurrent request made the same change.
             *     - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered.
             */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listAssets: {
        parameters: {
            query?: {
                /** @description Exact asset type, case-insensitive. */
                asset_type?: string;
                /** @description Exact client, case-insensitive. */
                client?: string;
                /** @description Exact product, case-insensitive. */
                product?: string;
                /** @description Assets carrying this tag, case-insensitive. */
                tag?: string;
                /** @description Assets carrying a tag that starts with this text, case-insensitive (`%` and `_` are plain characters). */
                tag_prefix?: string;
                /** @description Full-text search over title, tags, type, client and product (web-search syntax: "quoted", or, -not). */
                q?: string;
                /** @description Assets whose palette has a colour of this name (see `GET /api/v1/colors`); assets not yet analysed match no colour. */
                color?: "red" | "orange" | "yellow" | "green" | "teal" | "blue" | "purple" | "pink" | "brown" | "black" | "gray" | "white";
                /** @description Assets whose file declares this origin (`provenance.source`); assets not yet read match none. */
                provenance?: "ai" | "ai_composite" | "capture" | "edited" | "unknown";
                /** @description The asset with exactly this `external_id` (case-sensitive), if any. */
                external_id?: string;
                /** @description The order, `-created_at` (newest first) when absent: `created_at`, `title` (case-insensitive, by character code; an empty title first), `byte_size` or `updated_at`; `-` before the key for descending. Ties are broken by `id` in the same direction, so offset paging is stable. */
                sort?: "created_at" | "-created_at" | "title" | "-title" | "byte_size" | "-byte_size" | "updated_at" | "-updated_at";
                /** @description Page size; values above 100 are capped to 100. */
                limit?: number;
                /** @description How many items to skip. */
                offset?: number;
                /** @description The `next_cursor` of the page before: the page after it, in the same order and with the same filters (anything else is 400 `invalid_cursor`). With `offset` 0 or absent. Unlike an offset, it costs the same at any depth, and it neither skips nor repeats an asset when others are added or deleted meanwhile. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of assets. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *           "title": "Summer campaign hero",
                     *           "asset_type": "Banner",
                     *           "client": "Initech",
                     *           "product": "Stapler",
                     *           "tags": [
                     *             "summer",
                     *             "hero"
                     *           ],
                     *           "source_url": "https://www.figma.com/file/abc123",
                     *           "created_by_ai": false,
                     *           "mime_type": "image/png",
                     *           "width": 2400,
                     *           "height": 1200,
                     *           "byte_size": 1843200,
                     *           "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *           "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *           "thumbnail_expires_at": "2026-11-22T20:00:00.000Z",
                     *           "thumbnail_status": "available",
                     *           "thumbnail_failure": null,
                     *           "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *           "renditions": {
                     *             "thumbnail": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *             "original": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *             "web-1200": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1795363200&sig=0b9c2625dc21ef05f6ad4ddf47c5f203837aa32c0b9c2625dc21ef05f6ad4ddf"
                     *           },
                     *           "version": 1,
                     *           "external_id": "figma:FILEKEY:1-23",
                     *           "near_duplicates": [
                     *             {
                     *               "asset_id": "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08",
                     *               "distance": 3
                     *             }
                     *           ],
                     *           "colors": [
                     *             {
                     *               "hex": "#1e5aa8",
                     *               "share": 0.52,
                     *               "name": "blue"
                     *             },
                     *             {
                     *               "hex": "#f4f1ea",
                     *               "share": 0.31,
                     *               "name": "white"
                     *             },
                     *             {
                     *               "hex": "#e2a32b",
                     *               "share": 0.17,
                     *               "name": "orange"
                     *             }
                     *           ],
                     *           "metadata": {
                     *             "orientation": 1,
                     *             "captured_at": "2026-06-14T09:31:05",
                     *             "camera_make": "FUJIFILM",
                     *             "camera_model": "X-T5",
                     *             "lens": "XF23mmF1.4 R LM WR",
                     *             "creator": "Dana Reyes",
                     *             "copyright": "© 2026 Initech",
                     *             "credit": "Dana Reyes / Initech",
                     *             "title": "Summer campaign hero",
                     *             "description": "Stapler on a beach towel",
                     *             "keywords": [
                     *               "summer",
                     *               "beach"
                     *             ],
                     *             "gps": null
                     *           },
                     *           "provenance": {
                     *             "source": "capture",
                     *             "c2pa": null
                     *           },
                     *           "created_by": {
                     *             "kind": "key",
                     *             "name": "figma-plugin"
                     *           },
                     *           "collections": [
                     *             {
                     *               "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *               "name": "Q3 launch"
                     *             }
                     *           ],
                     *           "created_at": "2026-11-21T19:00:00.000Z",
                     *           "updated_at": "2026-11-21T19:05:00.000Z"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "total_exact": true,
                     *       "limit": 50,
                     *       "offset": 0,
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Asset"][];
                        /** @description Items matching, across all pages. */
                        total: number;
                        limit: number;
                        offset: number;
                        /** @description False when `total` is an estimate: a full-text filter (`q`) matching more than 1,000 assets (`LIST_EXACT_TOTAL_UP_TO`) is not counted to the end. Say "1,000+" rather than the estimate, which is rough. */
                        total_exact: boolean;
                        /** @description Pass it as `cursor` for the next page; null on the last page. Opaque: it names the sort, the filters and the last asset of this page. */
                        next_cursor: string | null;
                    };
                };
            };
            /**
             * @description - `invalid_cursor`: a `cursor` that is not a `next_cursor` of this list (its sort and filters), or `cursor` with `external_id`.
             *     - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pushAsset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Fetched by the service (public addresses only). Give this or image_base64.
                     */
                    image_url?: string;
                    /** @description The image bytes in base64, optionally as a data: URL; at most 25 MiB decoded. Give this or image_url. */
                    image_base64?: string;
                    /** @description Absent or blank on a new asset: the file’s embedded title (XMP or IPTC), if any. */
                    title?: string;
                    /** @description One of the organization’s asset types (GET /api/v1/asset-types). */
                    asset_type?: string;
                    /** @description Client name; free text. */
                    client?: string;
                    /** @description Product name; free text. */
                    product?: string;
                    /** @description Tag names. Absent on a new asset: the file’s embedded IPTC and XMP keywords (each cut to 100 characters, at most 100); `[]` means no tags. Tags are created on first use and matched case-insensitively. */
                    tag_names?: string[];
                    /** @description An existing manual collection to add the asset to; never created. */
                    collection_name?: string;
                    /** @description The asset’s id in the system it came from, such as `figma:KEY:1-23` or `path:brand/logo.svg`: unique among the organization’s live assets, so a re-import updates instead of duplicating. */
                    external_id?: string;
                    /**
                     * Format: uri
                     * @description Where the asset comes from.
                     */
                    source_url?: string;
                    /** @description Send false for human-made assets; true when not sent (a push with a known `external_id` then leaves it as it is). */
                    created_by_ai?: boolean;
                };
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The image file, at most 25 MiB (`curl -F file=@logo.png`). Its format is read from the bytes; the part’s file name and Content-Type are ignored. Give this or image_url.
                     */
                    file?: string;
                    /**
                     * Format: uri
                     * @description Fetched by the service (public addresses only). Give this or a `file` part.
                     */
                    image_url?: string;
                    /** @description Absent or blank on a new asset: the file’s embedded title (XMP or IPTC), if any. */
                    title?: string;
                    /** @description One of the organization’s asset types (GET /api/v1/asset-types). */
                    asset_type?: string;
                    /** @description Client name; free text. */
                    client?: string;
                    /** @description Product name; free text. */
                    product?: string;
                    /** @description Tag names: repeat the field once per name, or send one field holding a JSON array (`["brand","logo"]`). Absent on a new asset: the file’s embedded keywords. Tags are created on first use and matched case-insensitively. */
                    tag_names?: string[];
                    /** @description An existing manual collection to add the asset to; never created. */
                    collection_name?: string;
                    /**
                     * Format: uri
                     * @description Where the asset comes from.
                     */
                    source_url?: string;
                    /** @description The asset’s id in the system it came from, such as `figma:KEY:1-23` or `path:brand/logo.svg`: unique among the organization’s live assets, so a re-import updates instead of duplicating. */
                    external_id?: string;
                    /** @description `true` or `false`; send false for human-made assets; true when not sent. */
                    created_by_ai?: boolean;
                };
            };
        };
        responses: {
            /** @description These bytes were already an asset of the organization. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "asset_id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *       "duplicate": true
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        asset_id: string;
                        /** @description True when these exact bytes were already in the library: nothing was changed. */
                        duplicate: boolean;
                        /** @description With an `external_id` naming an asset of the organization: that asset’s version now (the new one, or its current one for a duplicate). */
                        version?: number;
                    };
                };
            };
            /** @description A new asset was created. */
            201: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "asset_id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *       "duplicate": false
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        asset_id: string;
                        /** @description True when these exact bytes were already in the library: nothing was changed. */
                        duplicate: boolean;
                        /** @description With an `external_id` naming an asset of the organization: that asset’s version now (the new one, or its current one for a duplicate). */
                        version?: number;
                    };
                };
            };
            /**
             * @description - `validation_failed`: not exactly one of `image_url`, `image_base64` and a `file` part, or `image_base64` is not base64.
             *     - `bad_request`: a multipart/form-data body that is cut short or malformed.
             *     - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `plan_limit_reached`: the organization's plan holds no more assets, or no more bytes of images.
             *     - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: `collection_name` names no collection (or it was deleted meanwhile); nothing is stored.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `smart_collection_immutable`: `collection_name` is a smart collection; nothing is stored.
             *     - `push_conflict`: a concurrent change to the same image, or to the plan's limits, interfered; push again.
             *     - `content_belongs_to_other_asset`: with an `external_id` naming an asset: the bytes are another asset’s, live or in the trash; the problem’s `asset_id` names it.
             *     - `restore_conflict`: the bytes are those of an asset in the trash whose `external_id` a live asset has now; nothing is restored.
             *     - `concurrent_change`: a concurrent request made the same change.
             *     - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered.
             */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `image_too_large`: the image is over 25 MiB, inline, uploaded or fetched; an upload is refused as soon as it passes the cap.
             *     - `body_too_large`: a form with more parts than a push has.
             *     - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise).
             */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is neither `application/json` nor `multipart/form-data`.
             *     - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unknown_asset_type`: `asset_type` is not in the organization's asset-type catalogue.
             *     - `not_an_image`: the bytes are not an image, or an SVG that is not well-formed XML.
             *     - `unsupported_image_format`: an image format we do not accept (HEIC), or an SVG in UTF-16, in another declared encoding than UTF-8, or gzip-compressed (`.svgz`).
             *     - `image_too_many_pixels`: an image with more pixels than we decode.
             *     - `svg_script`: an SVG with a `<script>`, an event attribute (`on…`), a `<foreignObject>` or an HTML element; refused, never stripped.
             *     - `svg_external_reference`: an SVG with an `href` or CSS `url()` to anything but `#id` or a base64 `data:image/…`, an `@import`, an `<?xml-stylesheet?>` or XInclude.
             *     - `svg_entity`: an SVG with a DOCTYPE (entities are refused, not expanded).
             *     - `svg_too_complex`: an SVG with over 100,000 elements, nesting over 256, over 1,000 `data:` images, or an embedded `data:` image that fails a pushed image’s checks (the message names it); an embedded SVG.
             *     - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body.
             */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `image_fetch_blocked`: `image_url` refused by the outbound guard: not a valid http or https URL, with a user name or password, or to a private address.
             *     - `image_fetch_failed`: `image_url` could not be fetched: the host was unreachable, answered an error status, redirected too often or was too slow.
             */
            502: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `storage_unavailable`: the file storage (the S3 bucket) cannot be reached; nothing is stored, push again later. */
            503: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    checkAssets: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sha256": [
                 *         "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                 *         "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description The hashes to look up; one asked twice is answered once. */
                    sha256: string[];
                };
            };
        };
        responses: {
            /** @description Each hash asked, once: found with its asset, or missing. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "found": [
                     *         {
                     *           "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *           "asset_id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55"
                     *         }
                     *       ],
                     *       "missing": [
                     *         "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description The hashes that are already an asset of your organization, in the order asked. */
                        found: {
                            sha256: string;
                            /** Format: uuid */
                            asset_id: string;
                        }[];
                        /** @description The hashes your organization has no asset of (another organization’s are missing too), in the order asked. */
                        missing: string[];
                    };
                };
            };
            /**
             * @description - `validation_failed`: no hash, more than 1,000, or a hash that is not 64 lowercase hex digits.
             *     - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`. */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered. */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise). */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    bulkEditAssets: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "ids": [
                 *         "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                 *         "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a56"
                 *       ],
                 *       "set": {
                 *         "client": "Acme"
                 *       },
                 *       "add_tags": [
                 *         "campaign-2026"
                 *       ],
                 *       "remove_tags": [
                 *         "draft"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description The assets to edit, 1 to 500; an id given twice is edited and answered once. */
                    ids: string[];
                    /** @description Fields given the same value on every asset. */
                    set?: {
                        asset_type?: null | string;
                        client?: null | string;
                        product?: null | string;
                        /** @description true: made with AI; false: made by a person. */
                        created_by_ai?: boolean;
                    };
                    /** @description Tags each asset gains (created on first use); one it has already is left as it is. Matched case-insensitively, trimmed. */
                    add_tags?: string[];
                    /** @description Tags each asset loses; one it lacks is no change. Matched case-insensitively, trimmed. */
                    remove_tags?: string[];
                };
            };
        };
        responses: {
            /** @description What was done to each asset. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "results": [
                     *         {
                     *           "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *           "result": "updated"
                     *         },
                     *         {
                     *           "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a56",
                     *           "result": "not_found",
                     *           "reason": "No asset of your organization has this id: it may be in the trash."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description One per distinct id, in the order the request named them. */
                        results: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description `updated`: changed, with its `asset.updated`; `unchanged`: it already had every value (no event); `not_found`: no live asset of your organization has this id (another organization’s, or in the trash); `forbidden`: you may not edit it.
                             * @enum {string}
                             */
                            result: "updated" | "unchanged" | "not_found" | "forbidden";
                            /** @description Why it was skipped, in plain words (not_found, forbidden). */
                            reason?: string;
                        }[];
                    };
                };
            };
            /**
             * @description - `validation_failed`: no id or more than 500, an unknown field, no change at all, or a tag both added and removed.
             *     - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered. */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise). */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unknown_asset_type`: `asset_type` is not in the organization's asset-type catalogue.
             *     - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body.
             */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *       "title": "Summer campaign hero",
                     *       "asset_type": "Banner",
                     *       "client": "Initech",
                     *       "product": "Stapler",
                     *       "tags": [
                     *         "summer",
                     *         "hero"
                     *       ],
                     *       "source_url": "https://www.figma.com/file/abc123",
                     *       "created_by_ai": false,
                     *       "mime_type": "image/png",
                     *       "width": 2400,
                     *       "height": 1200,
                     *       "byte_size": 1843200,
                     *       "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *       "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *       "thumbnail_expires_at": "2026-11-22T20:00:00.000Z",
                     *       "thumbnail_status": "available",
                     *       "thumbnail_failure": null,
                     *       "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *       "renditions": {
                     *         "thumbnail": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *         "original": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *         "web-1200": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1795363200&sig=0b9c2625dc21ef05f6ad4ddf47c5f203837aa32c0b9c2625dc21ef05f6ad4ddf"
                     *       },
                     *       "version": 1,
                     *       "external_id": "figma:FILEKEY:1-23",
                     *       "near_duplicates": [
                     *         {
                     *           "asset_id": "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08",
                     *           "distance": 3
                     *         }
                     *       ],
                     *       "colors": [
                     *         {
                     *           "hex": "#1e5aa8",
                     *           "share": 0.52,
                     *           "name": "blue"
                     *         },
                     *         {
                     *           "hex": "#f4f1ea",
                     *           "share": 0.31,
                     *           "name": "white"
                     *         },
                     *         {
                     *           "hex": "#e2a32b",
                     *           "share": 0.17,
                     *           "name": "orange"
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "orientation": 1,
                     *         "captured_at": "2026-06-14T09:31:05",
                     *         "camera_make": "FUJIFILM",
                     *         "camera_model": "X-T5",
                     *         "lens": "XF23mmF1.4 R LM WR",
                     *         "creator": "Dana Reyes",
                     *         "copyright": "© 2026 Initech",
                     *         "credit": "Dana Reyes / Initech",
                     *         "title": "Summer campaign hero",
                     *         "description": "Stapler on a beach towel",
                     *         "keywords": [
                     *           "summer",
                     *           "beach"
                     *         ],
                     *         "gps": null
                     *       },
                     *       "provenance": {
                     *         "source": "capture",
                     *         "c2pa": null
                     *       },
                     *       "created_by": {
                     *         "kind": "key",
                     *         "name": "figma-plugin"
                     *       },
                     *       "collections": [
                     *         {
                     *           "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *           "name": "Q3 launch"
                     *         }
                     *       ],
                     *       "created_at": "2026-11-21T19:00:00.000Z",
                     *       "updated_at": "2026-11-21T19:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Asset"];
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no asset with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteAsset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `role_required`: through the web app’s session, a member deleting an asset someone else pushed.
             *     - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no asset with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered. */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateAsset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    asset_type?: null | string;
                    client?: null | string;
                    product?: null | string;
                    source_url?: null | string;
                    created_by_ai?: boolean;
                    /** @description Replaces all tags; [] removes them. Tags are created on first use and matched case-insensitively. */
                    tag_names?: string[];
                    /** @description Sets the asset’s id in the system it came from (409 `external_id_taken` when another live asset has it); null clears it. */
                    external_id?: null | string;
                };
            };
        };
        responses: {
            /** @description The updated asset. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *       "title": "Summer campaign hero",
                     *       "asset_type": "Banner",
                     *       "client": "Initech",
                     *       "product": "Stapler",
                     *       "tags": [
                     *         "summer",
                     *         "hero"
                     *       ],
                     *       "source_url": "https://www.figma.com/file/abc123",
                     *       "created_by_ai": false,
                     *       "mime_type": "image/png",
                     *       "width": 2400,
                     *       "height": 1200,
                     *       "byte_size": 1843200,
                     *       "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *       "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *       "thumbnail_expires_at": "2026-11-22T20:00:00.000Z",
                     *       "thumbnail_status": "available",
                     *       "thumbnail_failure": null,
                     *       "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *       "renditions": {
                     *         "thumbnail": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *         "original": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *         "web-1200": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1795363200&sig=0b9c2625dc21ef05f6ad4ddf47c5f203837aa32c0b9c2625dc21ef05f6ad4ddf"
                     *       },
                     *       "version": 1,
                     *       "external_id": "figma:FILEKEY:1-23",
                     *       "near_duplicates": [
                     *         {
                     *           "asset_id": "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08",
                     *           "distance": 3
                     *         }
                     *       ],
                     *       "colors": [
                     *         {
                     *           "hex": "#1e5aa8",
                     *           "share": 0.52,
                     *           "name": "blue"
                     *         },
                     *         {
                     *           "hex": "#f4f1ea",
                     *           "share": 0.31,
                     *           "name": "white"
                     *         },
                     *         {
                     *           "hex": "#e2a32b",
                     *           "share": 0.17,
                     *           "name": "orange"
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "orientation": 1,
                     *         "captured_at": "2026-06-14T09:31:05",
                     *         "camera_make": "FUJIFILM",
                     *         "camera_model": "X-T5",
                     *         "lens": "XF23mmF1.4 R LM WR",
                     *         "creator": "Dana Reyes",
                     *         "copyright": "© 2026 Initech",
                     *         "credit": "Dana Reyes / Initech",
                     *         "title": "Summer campaign hero",
                     *         "description": "Stapler on a beach towel",
                     *         "keywords": [
                     *           "summer",
                     *           "beach"
                     *         ],
                     *         "gps": null
                     *       },
                     *       "provenance": {
                     *         "source": "capture",
                     *         "c2pa": null
                     *       },
                     *       "created_by": {
                     *         "kind": "key",
                     *         "name": "figma-plugin"
                     *       },
                     *       "collections": [
                     *         {
                     *           "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *           "name": "Q3 launch"
                     *         }
                     *       ],
                     *       "created_at": "2026-11-21T19:00:00.000Z",
                     *       "updated_at": "2026-11-21T19:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Asset"];
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no asset with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `concurrent_change`: a concurrent request made the same change.
             *     - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered.
             */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise). */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unknown_asset_type`: `asset_type` is not in the organization's asset-type catalogue.
             *     - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body.
             */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    renderAsset: {
        parameters: {
            query?: {
                /** @description Pixels; clamped to 1..`RENDER_MAX_SIDE` (4096 by default). Alone, the height follows the aspect ratio. */
                width?: number;
                /** @description Pixels; clamped to 1..`RENDER_MAX_SIDE`. Alone, the width follows the aspect ratio. */
                height?: number;
                /** @description With both sides: `contain` (default) pads the image to the box (transparent, white for JPEG, or `background`), `cover` fills the box and crops from the centre, `inside` fits the image in the box without padding and never enlarges it. */
                fit?: "contain" | "cover" | "inside";
                /** @description `auto` (default) picks AVIF or WebP when `Accept` names it, else JPEG for a JPEG original and PNG otherwise; the answer then carries `Vary: Accept`. */
                format?: "png" | "jpeg" | "webp" | "avif" | "auto";
                /** @description JPEG, WebP and AVIF quality, clamped to 20..100 (default 80); ignored for PNG. */
                quality?: number;
                /** @description The padding colour of `contain`, `rrggbb` or `rrggbbaa` (a leading `#` is allowed). */
                background?: string;
                /** @description A preset instead of the parameters above (which cannot be combined with it): `thumbnail` and `original` answer those files’ links, any other name one of the organization’s presets (`GET /api/v1/presets`). An unknown name is 400. */
                preset?: string;
                /** @description A version of the asset (see `GET /assets/{id}/versions`); the current one by default. */
                version?: number;
                /** @description `false` answers the link as JSON instead of redirecting to it. */
                redirect?: boolean;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description With `redirect=false`: the link, the file’s size and format. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present when a value was out of range: each one as `name=used (asked value)`, comma-separated, e.g. `width=4096 (asked 1000000000)`. */
                    "rendition-clamped"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1767225600&sig=3f5a9c0e2b7d4f61a8c35e9d0b1f7a2c4e6d8b0a1c3e5f7092b4d6f8a0c2e4f6",
                     *       "width": 1200,
                     *       "height": 800,
                     *       "format": "webp",
                     *       "expires_at": "2026-01-01T00:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: uri
                         * @description The signed file URL (`?expires=…&sig=…`), valid as long as `original_url`. Its file is made on its first request if need be.
                         */
                        url: string;
                        /** @description The file’s width in pixels. */
                        width: number;
                        /** @description The file’s height in pixels. */
                        height: number;
                        /** @description `png`, `jpeg`, `webp` or `avif`; for `preset=original`, the original’s own (`gif`, `svg+xml`…). */
                        format: string;
                        /**
                         * Format: date-time
                         * @description When `url` stops working.
                         */
                        expires_at: string;
                    };
                };
            };
            /** @description To the signed file URL of the rendition (made by now). */
            302: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present when a value was out of range: each one as `name=used (asked value)`, comma-separated, e.g. `width=4096 (asked 1000000000)`. */
                    "rendition-clamped"?: string;
                    /** @description The signed file URL. */
                    location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description - `validation_failed`: a value that is not a number, an unknown `fit` or `format`, a `background` that is not a hex colour, an unknown `preset`, or `preset` with other parameters.
             *     - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no asset with this id in your organization, or no such version.
             *     - `thumbnail_unavailable`: the image could not be decoded, so it has no renditions (`thumbnail_status: failed`).
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `render_busy`: too many renditions are being made here for this one to wait its turn; ask again after `Retry-After` seconds.
             *     - `storage_unavailable`: the file storage (the S3 bucket) cannot be reached.
             */
            503: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listTrash: {
        parameters: {
            query?: {
                /** @description Page size; values above 100 are capped to 100. */
                limit?: number;
                /** @description How many items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the trash. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *           "title": "Summer campaign hero",
                     *           "asset_type": "Banner",
                     *           "client": "Initech",
                     *           "product": "Stapler",
                     *           "tags": [
                     *             "summer",
                     *             "hero"
                     *           ],
                     *           "source_url": "https://www.figma.com/file/abc123",
                     *           "created_by_ai": false,
                     *           "mime_type": "image/png",
                     *           "width": 2400,
                     *           "height": 1200,
                     *           "byte_size": 1843200,
                     *           "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *           "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *           "thumbnail_expires_at": "2026-11-22T20:00:00.000Z",
                     *           "thumbnail_status": "available",
                     *           "thumbnail_failure": null,
                     *           "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *           "renditions": {
                     *             "thumbnail": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *             "original": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *             "web-1200": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1795363200&sig=0b9c2625dc21ef05f6ad4ddf47c5f203837aa32c0b9c2625dc21ef05f6ad4ddf"
                     *           },
                     *           "version": 1,
                     *           "external_id": "figma:FILEKEY:1-23",
                     *           "near_duplicates": [
                     *             {
                     *               "asset_id": "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08",
                     *               "distance": 3
                     *             }
                     *           ],
                     *           "colors": [
                     *             {
                     *               "hex": "#1e5aa8",
                     *               "share": 0.52,
                     *               "name": "blue"
                     *             },
                     *             {
                     *               "hex": "#f4f1ea",
                     *               "share": 0.31,
                     *               "name": "white"
                     *             },
                     *             {
                     *               "hex": "#e2a32b",
                     *               "share": 0.17,
                     *               "name": "orange"
                     *             }
                     *           ],
                     *           "metadata": {
                     *             "orientation": 1,
                     *             "captured_at": "2026-06-14T09:31:05",
                     *             "camera_make": "FUJIFILM",
                     *             "camera_model": "X-T5",
                     *             "lens": "XF23mmF1.4 R LM WR",
                     *             "creator": "Dana Reyes",
                     *             "copyright": "© 2026 Initech",
                     *             "credit": "Dana Reyes / Initech",
                     *             "title": "Summer campaign hero",
                     *             "description": "Stapler on a beach towel",
                     *             "keywords": [
                     *               "summer",
                     *               "beach"
                     *             ],
                     *             "gps": null
                     *           },
                     *           "provenance": {
                     *             "source": "capture",
                     *             "c2pa": null
                     *           },
                     *           "created_by": {
                     *             "kind": "key",
                     *             "name": "figma-plugin"
                     *           },
                     *           "collections": [
                     *             {
                     *               "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *               "name": "Q3 launch"
                     *             }
                     *           ],
                     *           "created_at": "2026-11-21T19:00:00.000Z",
                     *           "updated_at": "2026-11-21T19:05:00.000Z",
                     *           "deleted_at": "2026-11-25T09:30:00.000Z",
                     *           "purge_at": "2026-12-25T09:30:00.000Z",
                     *           "deleted_by": {
                     *             "kind": "user",
                     *             "name": "Ada Lovelace"
                     *           }
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "total_exact": true,
                     *       "limit": 50,
                     *       "offset": 0
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["TrashedAsset"][];
                        /** @description Items matching, across all pages. */
                        total: number;
                        limit: number;
                        offset: number;
                        /** @description Always true: the trash is counted exactly. */
                        total_exact: boolean;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    restoreTrashedAsset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The restored asset. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *       "title": "Summer campaign hero",
                     *       "asset_type": "Banner",
                     *       "client": "Initech",
                     *       "product": "Stapler",
                     *       "tags": [
                     *         "summer",
                     *         "hero"
                     *       ],
                     *       "source_url": "https://www.figma.com/file/abc123",
                     *       "created_by_ai": false,
                     *       "mime_type": "image/png",
                     *       "width": 2400,
                     *       "height": 1200,
                     *       "byte_size": 1843200,
                     *       "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *       "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *       "thumbnail_expires_at": "2026-11-22T20:00:00.000Z",
                     *       "thumbnail_status": "available",
                     *       "thumbnail_failure": null,
                     *       "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *       "renditions": {
                     *         "thumbnail": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *         "original": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *         "web-1200": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1795363200&sig=0b9c2625dc21ef05f6ad4ddf47c5f203837aa32c0b9c2625dc21ef05f6ad4ddf"
                     *       },
                     *       "version": 1,
                     *       "external_id": "figma:FILEKEY:1-23",
                     *       "near_duplicates": [
                     *         {
                     *           "asset_id": "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08",
                     *           "distance": 3
                     *         }
                     *       ],
                     *       "colors": [
                     *         {
                     *           "hex": "#1e5aa8",
                     *           "share": 0.52,
                     *           "name": "blue"
                     *         },
                     *         {
                     *           "hex": "#f4f1ea",
                     *           "share": 0.31,
                     *           "name": "white"
                     *         },
                     *         {
                     *           "hex": "#e2a32b",
                     *           "share": 0.17,
                     *           "name": "orange"
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "orientation": 1,
                     *         "captured_at": "2026-06-14T09:31:05",
                     *         "camera_make": "FUJIFILM",
                     *         "camera_model": "X-T5",
                     *         "lens": "XF23mmF1.4 R LM WR",
                     *         "creator": "Dana Reyes",
                     *         "copyright": "© 2026 Initech",
                     *         "credit": "Dana Reyes / Initech",
                     *         "title": "Summer campaign hero",
                     *         "description": "Stapler on a beach towel",
                     *         "keywords": [
                     *           "summer",
                     *           "beach"
                     *         ],
                     *         "gps": null
                     *       },
                     *       "provenance": {
                     *         "source": "capture",
                     *         "c2pa": null
                     *       },
                     *       "created_by": {
                     *         "kind": "key",
                     *         "name": "figma-plugin"
                     *       },
                     *       "collections": [
                     *         {
                     *           "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *           "name": "Q3 launch"
                     *         }
                     *       ],
                     *       "created_at": "2026-11-21T19:00:00.000Z",
                     *       "updated_at": "2026-11-21T19:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Asset"];
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no asset with this id in your organization’s trash (restored or purged already, or never deleted).
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `restore_conflict`: a live asset has this asset’s bytes or `external_id` now; delete or change that one first.
             *     - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered.
             */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    purgeTrashedAsset: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Purged. */
            204: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `role_required`: the web app's session of a member: only owners and admins may do this (for a key its scope is all that counts).
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no asset with this id in your organization’s trash (restored or purged already, or never deleted).
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered. */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCollections: {
        parameters: {
            query?: {
                kind?: "manual" | "smart";
                /** @description Name contains this, without case. */
                q?: string;
                /** @description Page size; values above 100 are capped to 100. */
                limit?: number;
                /** @description How many items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of collections. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *           "name": "Summer for Initech",
                     *           "description": "Everything tagged summer for Initech",
                     *           "kind": "smart",
                     *           "query": {
                     *             "tag": "summer",
                     *             "client": "Initech"
                     *           },
                     *           "asset_count": 12,
                     *           "shared": false,
                     *           "shared_at": null,
                     *           "created_at": "2026-11-21T19:00:00.000Z",
                     *           "updated_at": "2026-11-21T19:00:00.000Z"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "limit": 50,
                     *       "offset": 0
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Collection"][];
                        /** @description Items matching, across all pages. */
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCollection: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description A manual collection (assets added through the API), or a smart one (a `query`). */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Unique in the organization, compared without case. */
                    name: string;
                    description?: string;
                    /** @enum {string} */
                    kind?: "manual";
                } | {
                    /** @description Unique in the organization, compared without case. */
                    name: string;
                    description?: string;
                    /** @enum {string} */
                    kind?: "smart";
                    query: components["schemas"]["AssetQuery"];
                };
            };
        };
        responses: {
            /** @description The new collection. */
            201: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *       "name": "Summer for Initech",
                     *       "description": "Everything tagged summer for Initech",
                     *       "kind": "smart",
                     *       "query": {
                     *         "tag": "summer",
                     *         "client": "Initech"
                     *       },
                     *       "asset_count": 12,
                     *       "shared": false,
                     *       "shared_at": null,
                     *       "created_at": "2026-11-21T19:00:00.000Z",
                     *       "updated_at": "2026-11-21T19:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Collection"];
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `concurrent_change`: a concurrent request made the same change.
             *     - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered.
             */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise). */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `collection_name_taken`: another collection of the organization has this name (compared without case).
             *     - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body.
             */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCollection: {
        parameters: {
            query?: {
                /** @description The order, `-created_at` (newest first) when absent: `created_at`, `title` (case-insensitive, by character code; an empty title first), `byte_size` or `updated_at`; `-` before the key for descending. Ties are broken by `id` in the same direction, so offset paging is stable. */
                sort?: "created_at" | "-created_at" | "title" | "-title" | "byte_size" | "-byte_size" | "updated_at" | "-updated_at";
                /** @description Page size; values above 100 are capped to 100. */
                limit?: number;
                /** @description How many items to skip. */
                offset?: number;
                /** @description The `next_cursor` of the page before: the page after it, in the same order and with the same filters (anything else is 400 `invalid_cursor`). With `offset` 0 or absent. Unlike an offset, it costs the same at any depth, and it neither skips nor repeats an asset when others are added or deleted meanwhile. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The collection. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *       "name": "Summer for Initech",
                     *       "description": "Everything tagged summer for Initech",
                     *       "kind": "smart",
                     *       "query": {
                     *         "tag": "summer",
                     *         "client": "Initech"
                     *       },
                     *       "asset_count": 12,
                     *       "shared": false,
                     *       "shared_at": null,
                     *       "created_at": "2026-11-21T19:00:00.000Z",
                     *       "updated_at": "2026-11-21T19:00:00.000Z",
                     *       "assets": {
                     *         "data": [],
                     *         "total": 0,
                     *         "total_exact": true,
                     *         "limit": 50,
                     *         "offset": 0,
                     *         "next_cursor": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        name: string;
                        description: string;
                        kind: "manual" | "smart";
                        /** @description Smart collections only. */
                        query: null | components["schemas"]["AssetQuery"];
                        asset_count: number;
                        /** @description Has a public link. */
                        shared: boolean;
                        shared_at: null | string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** @description A page of the collection’s assets, in the order of `sort`, else of a smart collection’s `query.sort`, else newest first. */
                        assets: {
                            data: components["schemas"]["Asset"][];
                            /** @description Items matching, across all pages. */
                            total: number;
                            limit: number;
                            offset: number;
                            /** @description False when `total` is an estimate: a full-text filter (`q`) matching more than 1,000 assets (`LIST_EXACT_TOTAL_UP_TO`) is not counted to the end. Say "1,000+" rather than the estimate, which is rough. */
                            total_exact: boolean;
                            /** @description Pass it as `cursor` for the next page; null on the last page. Opaque: it names the sort, the filters and the last asset of this page. */
                            next_cursor: string | null;
                        };
                    };
                };
            };
            /**
             * @description - `invalid_cursor`: a `cursor` that is not an `assets.next_cursor` of this collection in this order.
             *     - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no collection with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteCollection: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `role_required`: through the web app’s session, a member deleting a collection someone else created.
             *     - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no collection with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered. */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateCollection: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Unique in the organization, compared without case. */
                    name?: string;
                    description?: string;
                    /** @description Cannot change; sending another kind is 422. */
                    kind?: "manual" | "smart";
                    query?: components["schemas"]["AssetQuery"];
                };
            };
        };
        responses: {
            /** @description The updated collection. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *       "name": "Summer for Initech",
                     *       "description": "Everything tagged summer for Initech",
                     *       "kind": "smart",
                     *       "query": {
                     *         "tag": "summer",
                     *         "client": "Initech"
                     *       },
                     *       "asset_count": 12,
                     *       "shared": false,
                     *       "shared_at": null,
                     *       "created_at": "2026-11-21T19:00:00.000Z",
                     *       "updated_at": "2026-11-21T19:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Collection"];
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no collection with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `concurrent_change`: a concurrent request made the same change.
             *     - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered.
             */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise). */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `collection_name_taken`: another collection of the organization has this name (compared without case).
             *     - `collection_kind_immutable`: `kind` differs from the collection’s.
             *     - `manual_collection_has_no_query`: a `query` for a manual collection.
             *     - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body.
             */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    addCollectionAssets: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description `{asset_id}` or `{asset_ids: [...]}` (at most 100). */
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    asset_id: string;
                } | {
                    asset_ids: string[];
                };
            };
        };
        responses: {
            /** @description What changed. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "changed": 1,
                     *       "asset_count": 13
                     *     }
                     */
                    "application/json": {
                        /** @description Assets actually added or removed (repeats are no-ops). */
                        changed: number;
                        asset_count: number;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no such collection or asset in your organization (or one deleted meanwhile); nothing changes.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `smart_collection_immutable`: the collection is smart: its content is its query.
             *     - `concurrent_change`: a concurrent request made the same change.
             *     - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered.
             */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise). */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    removeCollectionAssets: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description `{asset_id}` or `{asset_ids: [...]}` (at most 100). */
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    asset_id: string;
                } | {
                    asset_ids: string[];
                };
            };
        };
        responses: {
            /** @description What changed. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "changed": 1,
                     *       "asset_count": 13
                     *     }
                     */
                    "application/json": {
                        /** @description Assets actually added or removed (repeats are no-ops). */
                        changed: number;
                        asset_count: number;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no such collection or asset in your organization (or one deleted meanwhile); nothing changes.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `smart_collection_immutable`: the collection is smart: its content is its query.
             *     - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered.
             */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise). */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCollectionShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link, if any. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "shared": true,
                     *       "shared_at": "2026-11-21T19:00:00.000Z",
                     *       "share_url": "https://assets.example.com/s/9f1c3e…"
                     *     }
                     */
                    "application/json": {
                        /** @description Has a public link now. */
                        shared: boolean;
                        shared_at: null | string;
                        /** @description The live link; null when the collection is not shared, or when its link was made before links were kept (only a hash of those is stored: make a new link to see it here). */
                        share_url: null | string;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `role_required`: the web app's session of a member: only owners and admins may do this (for a key its scope is all that counts). */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no collection with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    shareCollection: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link. */
            201: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "share_url": "https://assets.example.com/s/9f1c3e…"
                     *     }
                     */
                    "application/json": {
                        share_url: string;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `role_required`: the web app's session of a member: only owners and admins may do this (for a key its scope is all that counts).
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no collection with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered. */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    unshareCollection: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `role_required`: the web app's session of a member: only owners and admins may do this (for a key its scope is all that counts).
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no collection with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered. */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    searchAssets: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What to look for. Matched as full text (English stemming and exact words, accents and case ignored; web-search syntax: "quoted phrase", -excluded, or; the last word also as a prefix) and, in hybrid mode, by meaning. */
                    q: string;
                    /**
                     * @description How many hits; values above 100 are capped to 100.
                     * @default 20
                     */
                    limit?: number;
                    /** @description Exact asset type, case-insensitive. */
                    asset_type?: string;
                    /** @description Exact client, case-insensitive. */
                    client?: string;
                    /** @description Exact product, case-insensitive. */
                    product?: string;
                    /** @description Assets carrying this tag, case-insensitive. */
                    tag?: string;
                    /** @description Assets carrying a tag that starts with this text, case-insensitive (`%` and `_` are plain characters). */
                    tag_prefix?: string;
                    /**
                     * @description Assets whose palette has a colour of this name (see `GET /api/v1/colors`); assets not yet analysed match no colour.
                     * @enum {string}
                     */
                    color?: "red" | "orange" | "yellow" | "green" | "teal" | "blue" | "purple" | "pink" | "brown" | "black" | "gray" | "white";
                    /**
                     * @description Assets whose file declares this origin (`provenance.source`); assets not yet read match none.
                     * @enum {string}
                     */
                    provenance?: "ai" | "ai_composite" | "capture" | "edited" | "unknown";
                };
            };
        };
        responses: {
            /** @description Hits, best first. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "mode": "hybrid",
                     *       "data": [
                     *         {
                     *           "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *           "title": "Summer campaign hero",
                     *           "asset_type": "Banner",
                     *           "client": "Initech",
                     *           "product": "Stapler",
                     *           "tags": [
                     *             "summer",
                     *             "hero"
                     *           ],
                     *           "source_url": "https://www.figma.com/file/abc123",
                     *           "created_by_ai": false,
                     *           "mime_type": "image/png",
                     *           "width": 2400,
                     *           "height": 1200,
                     *           "byte_size": 1843200,
                     *           "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *           "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *           "thumbnail_expires_at": "2026-11-22T20:00:00.000Z",
                     *           "thumbnail_status": "available",
                     *           "thumbnail_failure": null,
                     *           "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *           "renditions": {
                     *             "thumbnail": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *             "original": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *             "web-1200": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1795363200&sig=0b9c2625dc21ef05f6ad4ddf47c5f203837aa32c0b9c2625dc21ef05f6ad4ddf"
                     *           },
                     *           "version": 1,
                     *           "external_id": "figma:FILEKEY:1-23",
                     *           "near_duplicates": [
                     *             {
                     *               "asset_id": "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08",
                     *               "distance": 3
                     *             }
                     *           ],
                     *           "colors": [
                     *             {
                     *               "hex": "#1e5aa8",
                     *               "share": 0.52,
                     *               "name": "blue"
                     *             },
                     *             {
                     *               "hex": "#f4f1ea",
                     *               "share": 0.31,
                     *               "name": "white"
                     *             },
                     *             {
                     *               "hex": "#e2a32b",
                     *               "share": 0.17,
                     *               "name": "orange"
                     *             }
                     *           ],
                     *           "metadata": {
                     *             "orientation": 1,
                     *             "captured_at": "2026-06-14T09:31:05",
                     *             "camera_make": "FUJIFILM",
                     *             "camera_model": "X-T5",
                     *             "lens": "XF23mmF1.4 R LM WR",
                     *             "creator": "Dana Reyes",
                     *             "copyright": "© 2026 Initech",
                     *             "credit": "Dana Reyes / Initech",
                     *             "title": "Summer campaign hero",
                     *             "description": "Stapler on a beach towel",
                     *             "keywords": [
                     *               "summer",
                     *               "beach"
                     *             ],
                     *             "gps": null
                     *           },
                     *           "provenance": {
                     *             "source": "capture",
                     *             "c2pa": null
                     *           },
                     *           "created_by": {
                     *             "kind": "key",
                     *             "name": "figma-plugin"
                     *           },
                     *           "collections": [
                     *             {
                     *               "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *               "name": "Q3 launch"
                     *             }
                     *           ],
                     *           "created_at": "2026-11-21T19:00:00.000Z",
                     *           "updated_at": "2026-11-21T19:05:00.000Z",
                     *           "score": 0.71,
                     *           "text_score": 0.5,
                     *           "semantic_score": 0.85
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description `hybrid` when the query was embedded; `text` when the organization has AI off, no embedding provider or no pgvector is configured, or the provider failed or timed out for this call. */
                        mode: "hybrid" | "text";
                        /** @description Best first. */
                        data: components["schemas"]["SearchHit"][];
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`. */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered. */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise). */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    similarAssets: {
        parameters: {
            query?: {
                /** @description Values above 100 are capped to 100. */
                limit?: number;
                /** @description `meaning`: by embedding (the pictures’ with an image model), items with `semantic_score`. `appearance`: by perceptual hash, items with `distance`, no AI or provider needed. */
                by?: "meaning" | "appearance";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The nearest assets. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *           "title": "Summer campaign hero",
                     *           "asset_type": "Banner",
                     *           "client": "Initech",
                     *           "product": "Stapler",
                     *           "tags": [
                     *             "summer",
                     *             "hero"
                     *           ],
                     *           "source_url": "https://www.figma.com/file/abc123",
                     *           "created_by_ai": false,
                     *           "mime_type": "image/png",
                     *           "width": 2400,
                     *           "height": 1200,
                     *           "byte_size": 1843200,
                     *           "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *           "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *           "thumbnail_expires_at": "2026-11-22T20:00:00.000Z",
                     *           "thumbnail_status": "available",
                     *           "thumbnail_failure": null,
                     *           "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *           "renditions": {
                     *             "thumbnail": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *             "original": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *             "web-1200": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1795363200&sig=0b9c2625dc21ef05f6ad4ddf47c5f203837aa32c0b9c2625dc21ef05f6ad4ddf"
                     *           },
                     *           "version": 1,
                     *           "external_id": "figma:FILEKEY:1-23",
                     *           "near_duplicates": [
                     *             {
                     *               "asset_id": "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08",
                     *               "distance": 3
                     *             }
                     *           ],
                     *           "colors": [
                     *             {
                     *               "hex": "#1e5aa8",
                     *               "share": 0.52,
                     *               "name": "blue"
                     *             },
                     *             {
                     *               "hex": "#f4f1ea",
                     *               "share": 0.31,
                     *               "name": "white"
                     *             },
                     *             {
                     *               "hex": "#e2a32b",
                     *               "share": 0.17,
                     *               "name": "orange"
                     *             }
                     *           ],
                     *           "metadata": {
                     *             "orientation": 1,
                     *             "captured_at": "2026-06-14T09:31:05",
                     *             "camera_make": "FUJIFILM",
                     *             "camera_model": "X-T5",
                     *             "lens": "XF23mmF1.4 R LM WR",
                     *             "creator": "Dana Reyes",
                     *             "copyright": "© 2026 Initech",
                     *             "credit": "Dana Reyes / Initech",
                     *             "title": "Summer campaign hero",
                     *             "description": "Stapler on a beach towel",
                     *             "keywords": [
                     *               "summer",
                     *               "beach"
                     *             ],
                     *             "gps": null
                     *           },
                     *           "provenance": {
                     *             "source": "capture",
                     *             "c2pa": null
                     *           },
                     *           "created_by": {
                     *             "kind": "key",
                     *             "name": "figma-plugin"
                     *           },
                     *           "collections": [
                     *             {
                     *               "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *               "name": "Q3 launch"
                     *             }
                     *           ],
                     *           "created_at": "2026-11-21T19:00:00.000Z",
                     *           "updated_at": "2026-11-21T19:05:00.000Z",
                     *           "semantic_score": 0.91
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "limit": 20,
                     *       "offset": 0
                     *     }
                     */
                    "application/json": {
                        data: (components["schemas"]["SimilarAsset"] | components["schemas"]["LookalikeAsset"])[];
                        /** @description Items matching, across all pages. */
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no asset with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listDuplicates: {
        parameters: {
            query?: {
                /** @description Page size; values above 100 are capped to 100. */
                limit?: number;
                /** @description How many items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "asset": {
                     *             "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *             "title": "Summer campaign hero",
                     *             "asset_type": "Banner",
                     *             "client": "Initech",
                     *             "product": "Stapler",
                     *             "tags": [
                     *               "summer",
                     *               "hero"
                     *             ],
                     *             "source_url": "https://www.figma.com/file/abc123",
                     *             "created_by_ai": false,
                     *             "mime_type": "image/png",
                     *             "width": 2400,
                     *             "height": 1200,
                     *             "byte_size": 1843200,
                     *             "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *             "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *             "thumbnail_expires_at": "2026-11-22T20:00:00.000Z",
                     *             "thumbnail_status": "available",
                     *             "thumbnail_failure": null,
                     *             "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *             "renditions": {
                     *               "thumbnail": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *               "original": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *               "web-1200": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1795363200&sig=0b9c2625dc21ef05f6ad4ddf47c5f203837aa32c0b9c2625dc21ef05f6ad4ddf"
                     *             },
                     *             "version": 1,
                     *             "external_id": "figma:FILEKEY:1-23",
                     *             "near_duplicates": [
                     *               {
                     *                 "asset_id": "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08",
                     *                 "distance": 3
                     *               }
                     *             ],
                     *             "colors": [
                     *               {
                     *                 "hex": "#1e5aa8",
                     *                 "share": 0.52,
                     *                 "name": "blue"
                     *               },
                     *               {
                     *                 "hex": "#f4f1ea",
                     *                 "share": 0.31,
                     *                 "name": "white"
                     *               },
                     *               {
                     *                 "hex": "#e2a32b",
                     *                 "share": 0.17,
                     *                 "name": "orange"
                     *               }
                     *             ],
                     *             "metadata": {
                     *               "orientation": 1,
                     *               "captured_at": "2026-06-14T09:31:05",
                     *               "camera_make": "FUJIFILM",
                     *               "camera_model": "X-T5",
                     *               "lens": "XF23mmF1.4 R LM WR",
                     *               "creator": "Dana Reyes",
                     *               "copyright": "© 2026 Initech",
                     *               "credit": "Dana Reyes / Initech",
                     *               "title": "Summer campaign hero",
                     *               "description": "Stapler on a beach towel",
                     *               "keywords": [
                     *                 "summer",
                     *                 "beach"
                     *               ],
                     *               "gps": null
                     *             },
                     *             "provenance": {
                     *               "source": "capture",
                     *               "c2pa": null
                     *             },
                     *             "created_by": {
                     *               "kind": "key",
                     *               "name": "figma-plugin"
                     *             },
                     *             "collections": [
                     *               {
                     *                 "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *                 "name": "Q3 launch"
                     *               }
                     *             ],
                     *             "created_at": "2026-11-21T19:00:00.000Z",
                     *             "updated_at": "2026-11-21T19:05:00.000Z"
                     *           },
                     *           "duplicates": [
                     *             {
                     *               "distance": 3,
                     *               "asset": {
                     *                 "id": "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08",
                     *                 "title": "Summer campaign hero",
                     *                 "asset_type": "Banner",
                     *                 "client": "Initech",
                     *                 "product": "Stapler",
                     *                 "tags": [
                     *                   "summer",
                     *                   "hero"
                     *                 ],
                     *                 "source_url": "https://www.figma.com/file/abc123",
                     *                 "created_by_ai": false,
                     *                 "mime_type": "image/png",
                     *                 "width": 2400,
                     *                 "height": 1200,
                     *                 "byte_size": 1843200,
                     *                 "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *                 "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *                 "thumbnail_expires_at": "2026-11-22T20:00:00.000Z",
                     *                 "thumbnail_status": "available",
                     *                 "thumbnail_failure": null,
                     *                 "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *                 "renditions": {
                     *                   "thumbnail": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *                   "original": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *                   "web-1200": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1795363200&sig=0b9c2625dc21ef05f6ad4ddf47c5f203837aa32c0b9c2625dc21ef05f6ad4ddf"
                     *                 },
                     *                 "version": 1,
                     *                 "external_id": "figma:FILEKEY:1-23",
                     *                 "near_duplicates": [
                     *                   {
                     *                     "asset_id": "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08",
                     *                     "distance": 3
                     *                   }
                     *                 ],
                     *                 "colors": [
                     *                   {
                     *                     "hex": "#1e5aa8",
                     *                     "share": 0.52,
                     *                     "name": "blue"
                     *                   },
                     *                   {
                     *                     "hex": "#f4f1ea",
                     *                     "share": 0.31,
                     *                     "name": "white"
                     *                   },
                     *                   {
                     *                     "hex": "#e2a32b",
                     *                     "share": 0.17,
                     *                     "name": "orange"
                     *                   }
                     *                 ],
                     *                 "metadata": {
                     *                   "orientation": 1,
                     *                   "captured_at": "2026-06-14T09:31:05",
                     *                   "camera_make": "FUJIFILM",
                     *                   "camera_model": "X-T5",
                     *                   "lens": "XF23mmF1.4 R LM WR",
                     *                   "creator": "Dana Reyes",
                     *                   "copyright": "© 2026 Initech",
                     *                   "credit": "Dana Reyes / Initech",
                     *                   "title": "Summer campaign hero",
                     *                   "description": "Stapler on a beach towel",
                     *                   "keywords": [
                     *                     "summer",
                     *                     "beach"
                     *                   ],
                     *                   "gps": null
                     *                 },
                     *                 "provenance": {
                     *                   "source": "capture",
                     *                   "c2pa": null
                     *                 },
                     *                 "created_by": {
                     *                   "kind": "key",
                     *                   "name": "figma-plugin"
                     *                 },
                     *                 "collections": [
                     *                   {
                     *                     "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *                     "name": "Q3 launch"
                     *                   }
                     *                 ],
                     *                 "created_at": "2026-11-21T19:00:00.000Z",
                     *                 "updated_at": "2026-11-21T19:05:00.000Z"
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "limit": 50,
                     *       "offset": 0
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["DuplicateGroup"][];
                        /** @description Items matching, across all pages. */
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resolveDuplicates: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The asset to keep: it gains the others’ tags and manual collections.
                     */
                    keep: string;
                    /** @description The assets to move to the trash (1 to 100, each once, not `keep`). */
                    trash: string[];
                };
            };
        };
        responses: {
            /** @description The kept asset as it is now, and the trashed ids. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "kept": {
                     *         "id": "0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55",
                     *         "title": "Summer campaign hero",
                     *         "asset_type": "Banner",
                     *         "client": "Initech",
                     *         "product": "Stapler",
                     *         "tags": [
                     *           "summer",
                     *           "hero"
                     *         ],
                     *         "source_url": "https://www.figma.com/file/abc123",
                     *         "created_by_ai": false,
                     *         "mime_type": "image/png",
                     *         "width": 2400,
                     *         "height": 1200,
                     *         "byte_size": 1843200,
                     *         "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                     *         "thumbnail_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *         "thumbnail_expires_at": "2026-11-22T20:00:00.000Z",
                     *         "thumbnail_status": "available",
                     *         "thumbnail_failure": null,
                     *         "original_url": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *         "renditions": {
                     *           "thumbnail": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592",
                     *           "original": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7",
                     *           "web-1200": "https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1795363200&sig=0b9c2625dc21ef05f6ad4ddf47c5f203837aa32c0b9c2625dc21ef05f6ad4ddf"
                     *         },
                     *         "version": 1,
                     *         "external_id": "figma:FILEKEY:1-23",
                     *         "near_duplicates": [
                     *           {
                     *             "asset_id": "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08",
                     *             "distance": 3
                     *           }
                     *         ],
                     *         "colors": [
                     *           {
                     *             "hex": "#1e5aa8",
                     *             "share": 0.52,
                     *             "name": "blue"
                     *           },
                     *           {
                     *             "hex": "#f4f1ea",
                     *             "share": 0.31,
                     *             "name": "white"
                     *           },
                     *           {
                     *             "hex": "#e2a32b",
                     *             "share": 0.17,
                     *             "name": "orange"
                     *           }
                     *         ],
                     *         "metadata": {
                     *           "orientation": 1,
                     *           "captured_at": "2026-06-14T09:31:05",
                     *           "camera_make": "FUJIFILM",
                     *           "camera_model": "X-T5",
                     *           "lens": "XF23mmF1.4 R LM WR",
                     *           "creator": "Dana Reyes",
                     *           "copyright": "© 2026 Initech",
                     *           "credit": "Dana Reyes / Initech",
                     *           "title": "Summer campaign hero",
                     *           "description": "Stapler on a beach towel",
                     *           "keywords": [
                     *             "summer",
                     *             "beach"
                     *           ],
                     *           "gps": null
                     *         },
                     *         "provenance": {
                     *           "source": "capture",
                     *           "c2pa": null
                     *         },
                     *         "created_by": {
                     *           "kind": "key",
                     *           "name": "figma-plugin"
                     *         },
                     *         "collections": [
                     *           {
                     *             "id": "0193a5b2-6b00-7000-8000-000000000002",
                     *             "name": "Q3 launch"
                     *           }
                     *         ],
                     *         "created_at": "2026-11-21T19:00:00.000Z",
                     *         "updated_at": "2026-11-21T19:05:00.000Z"
                     *       },
                     *       "trashed": [
                     *         "0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        kept: components["schemas"]["Asset"];
                        /** @description The assets moved to the trash, as asked. */
                        trashed: string[];
                    };
                };
            };
            /**
             * @description - `validation_failed`: `keep` also in `trash`, an id twice in `trash`, `trash` empty or longer than 100, or the kept asset would have more than 100 tags.
             *     - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `role_required`: through the web app’s session, a member trashing an asset someone else pushed.
             *     - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: an id that is no live asset of your organization (another organization’s, already in the trash, or never pushed).
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered. */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise). */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body. */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listColors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The colour names. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "name": "red",
                     *           "hex": "#d32f2f"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description The colour names, in the order of the spectrum, then the neutrals. */
                        data: {
                            /** @description What `color=` takes, and what a palette colour is named. */
                            name: string;
                            /** @description The colour a swatch of the name is drawn in (lowercase `#rrggbb`). */
                            hex: string;
                        }[];
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listImports: {
        parameters: {
            query?: {
                /** @description Page size; values above 100 are capped to 100. */
                limit?: number;
                /** @description How many items to skip. */
                offset?: number;
                /** @description Only the imports of this Figma file. */
                file_key?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of imports. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e1f",
                     *           "source": "figma",
                     *           "status": "done",
                     *           "file_url": "https://www.figma.com/design/AbCdEf1234567890/Brand-kit",
                     *           "file_key": "AbCdEf1234567890",
                     *           "node_id": null,
                     *           "select": "frames",
                     *           "node_ids": [],
                     *           "format": "png",
                     *           "scale": 2,
                     *           "metadata": {
                     *             "asset_type": "Logo",
                     *             "client": null,
                     *             "product": null,
                     *             "tag_names": [
                     *               "brand"
                     *             ],
                     *             "collection_name": null,
                     *             "created_by_ai": false
                     *           },
                     *           "file_name": "Brand kit",
                     *           "file_version": "4455667788",
                     *           "run": 2,
                     *           "total": 3,
                     *           "created": 1,
                     *           "updated": 1,
                     *           "unchanged": 0,
                     *           "failed": 1,
                     *           "missing": 1,
                     *           "failures": [
                     *             {
                     *               "node_id": "12:7",
                     *               "name": "Hero (draft)",
                     *               "reason": "render_failed",
                     *               "detail": "Figma could not render this node."
                     *             }
                     *           ],
                     *           "missing_nodes": [
                     *             {
                     *               "node_id": "12:9",
                     *               "name": "Old banner",
                     *               "asset_id": "0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e20"
                     *             }
                     *           ],
                     *           "error": null,
                     *           "created_by": {
                     *             "kind": "key",
                     *             "name": "CI"
                     *           },
                     *           "created_at": "2026-11-28T09:00:00.000Z",
                     *           "started_at": "2026-11-28T10:00:01.000Z",
                     *           "finished_at": "2026-11-28T10:00:09.000Z"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "limit": 50,
                     *       "offset": 0
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Import"][];
                        /** @description Items matching, across all pages. */
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of. */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createImport: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    source: "figma";
                    /** @description Any Figma file or design link; a `node-id` in it narrows the import to that node’s subtree. */
                    file_url: string;
                    /** @description `frames`: the top-level frames of each page (of the linked node’s subtree when the link has a `node-id`); `components`: the file’s components, and the variants of its component sets; `nodes`: the nodes of `node_ids`. */
                    select?: "frames" | "components" | "nodes";
                    /** @description With `select: "nodes"` only, and required there. */
                    node_ids?: string[];
                    /** @description Default `png`. */
                    format?: "png" | "svg" | "jpg";
                    /** @description Default 1. Ignored by Figma for `svg`. */
                    scale?: number;
                    /** @description A Figma personal access token. Never returned or logged. */
                    figma_token?: string;
                    /** @description One of the organization’s asset types (GET /api/v1/asset-types). */
                    asset_type?: string;
                    /** @description Client name; free text. */
                    client?: string;
                    /** @description Product name; free text. */
                    product?: string;
                    /** @description Tag names. Absent on a new asset: the file’s embedded IPTC and XMP keywords (each cut to 100 characters, at most 100); `[]` means no tags. Tags are created on first use and matched case-insensitively. */
                    tag_names?: string[];
                    /** @description An existing manual collection to add the asset to; never created. */
                    collection_name?: string;
                    /** @description Default false: a design made in Figma is made by people. */
                    created_by_ai?: boolean;
                };
            };
        };
        responses: {
            /** @description The import is queued. */
            202: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description The import: `/api/v1/imports/{id}`. */
                    location?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "import_id": "0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e1f",
                     *       "status": "queued"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        import_id: string;
                        /** @enum {string} */
                        status: "queued";
                    };
                };
            };
            /**
             * @description - `invalid_figma_url`: an import `file_url` that is not a Figma file or design link, or has no file key.
             *     - `validation_failed`: `select: "nodes"` without `node_ids`, `node_ids` with another selection, or a field out of range.
             *     - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: `collection_name` names no collection of your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `smart_collection_immutable`: `collection_name` names a smart collection.
             *     - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered.
             */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise). */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unknown_asset_type`: an `asset_type` outside the organization's catalogue.
             *     - `figma_not_connected`: no `figma_token` was sent and the organization has stored no Figma token.
             *     - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body.
             */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e1f",
                     *       "source": "figma",
                     *       "status": "done",
                     *       "file_url": "https://www.figma.com/design/AbCdEf1234567890/Brand-kit",
                     *       "file_key": "AbCdEf1234567890",
                     *       "node_id": null,
                     *       "select": "frames",
                     *       "node_ids": [],
                     *       "format": "png",
                     *       "scale": 2,
                     *       "metadata": {
                     *         "asset_type": "Logo",
                     *         "client": null,
                     *         "product": null,
                     *         "tag_names": [
                     *           "brand"
                     *         ],
                     *         "collection_name": null,
                     *         "created_by_ai": false
                     *       },
                     *       "file_name": "Brand kit",
                     *       "file_version": "4455667788",
                     *       "run": 2,
                     *       "total": 3,
                     *       "created": 1,
                     *       "updated": 1,
                     *       "unchanged": 0,
                     *       "failed": 1,
                     *       "missing": 1,
                     *       "failures": [
                     *         {
                     *           "node_id": "12:7",
                     *           "name": "Hero (draft)",
                     *           "reason": "render_failed",
                     *           "detail": "Figma could not render this node."
                     *         }
                     *       ],
                     *       "missing_nodes": [
                     *         {
                     *           "node_id": "12:9",
                     *           "name": "Old banner",
                     *           "asset_id": "0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e20"
                     *         }
                     *       ],
                     *       "error": null,
                     *       "created_by": {
                     *         "kind": "key",
                     *         "name": "CI"
                     *       },
                     *       "created_at": "2026-11-28T09:00:00.000Z",
                     *       "started_at": "2026-11-28T10:00:01.000Z",
                     *       "finished_at": "2026-11-28T10:00:09.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Import"];
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no import with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listImportNodes: {
        parameters: {
            query?: {
                /** @description Page size; values above 100 are capped to 100. */
                limit?: number;
                /** @description How many items to skip. */
                offset?: number;
                /** @description Only the nodes with this outcome; `pending`: not yet done in this run. */
                outcome?: ("created" | "updated" | "unchanged" | "failed" | "missing") | "pending";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the import’s nodes. */
            200: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "node_id": "12:7",
                     *           "name": "Hero",
                     *           "page_name": "Marketing",
                     *           "component_set_name": null,
                     *           "outcome": "updated",
                     *           "reason": null,
                     *           "detail": null,
                     *           "asset_id": "0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e21",
                     *           "figma_url": "https://www.figma.com/design/AbCdEf1234567890/?node-id=12-7"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "limit": 50,
                     *       "offset": 0
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ImportNode"][];
                        /** @description Items matching, across all pages. */
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; a body is refused (`/`): this endpoint takes none.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no import with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rerunImport: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.
                 * @example 5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d
                 */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A Figma personal access token. Never returned or logged. */
                    figma_token?: string;
                };
            };
        };
        responses: {
            /** @description The sync is queued. */
            202: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description The import: `/api/v1/imports/{id}`. */
                    location?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "import_id": "0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e1f",
                     *       "status": "queued"
                     *     }
                     */
                    "application/json": {
                        /** Format: uuid */
                        import_id: string;
                        /** @enum {string} */
                        status: "queued";
                    };
                };
            };
            /**
             * @description - `bad_url`: a bad percent-encoding in the path or the query.
             *     - `bad_request`: `Authorization`, `Content-Type` or `Host` sent twice.
             *     - `validation_failed`: the request fails its schema; `errors` points at each field.
             *     - `malformed_json`: the body is not valid JSON.
             *     - `organization_required`: the web app's session, of a user of several organizations, without `X-Organization`.
             */
            400: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `invalid_api_key`: key missing, malformed, unknown, revoked or expired; carries `WWW-Authenticate: Bearer`.
             *     - `not_signed_in`: the web app's session cookie, sent instead of a key, is for a session that expired or was signed out.
             */
            401: {
                headers: {
                    /** @description The authentication scheme to use: `Bearer realm="asset-library"`. */
                    "www-authenticate"?: string;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `insufficient_scope`: an `assets:read` key: this endpoint needs `assets:write`.
             *     - `csrf_token_invalid`: the web app's session without its `X-CSRF-Token`.
             */
            403: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `not_found`: no import with this id in your organization.
             *     - `not_found`: the web app's `X-Organization` names an organization the signed-in user is not a member of.
             */
            404: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `import_in_progress`: a rerun of an import that is queued or running.
             *     - `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running; retry once it has answered.
             */
            409: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `body_too_large`: a body over this endpoint's limit (1 MiB unless it says otherwise). */
            413: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `unsupported_media_type`: a body that is not `application/json`.
             *     - `unsupported_charset`: a JSON body declared in another charset than UTF-8.
             *     - `unsupported_content_encoding`: a body sent with a `Content-Encoding` (gzip, …); carries `Accept-Encoding: identity`.
             */
            415: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /**
             * @description - `figma_not_connected`: no `figma_token` was sent and the organization has stored no Figma token.
             *     - `idempotency_key_reused`: an `Idempotency-Key` used in the last 24 h for another method, path or body.
             */
            422: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    /** @description Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key. */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `rate_limited`: too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Whole seconds to wait before retrying. */
                    "retry-after"?: number;
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description - `internal_error`: our bug; the details go to the log with the request id. */
            500: {
                headers: {
                    /** @description Requests allowed in the current window for this bucket. */
                    "x-ratelimit-limit"?: number;
                    /** @description Requests left in the current window. */
                    "x-ratelimit-remaining"?: number;
                    /** @description Seconds until the window resets. */
                    "x-ratelimit-reset"?: number;
                    /** @description Identifies this request in our logs; quote it when reporting a problem. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pingEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind. */
                "X-Service-Event": "ping";
                /** @description The delivery id (the envelope’s `id`). */
                "X-Service-Delivery-Id": string;
                /** @description Unix seconds when this attempt was signed. */
                "X-Service-Timestamp": string;
                /** @description `t=<timestamp>,v1=<hex>`: hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret; during a secret rotation one `v1=` per secret. Verify it (docs/webhooks.md, or `verifyWebhook` of the SDK) before trusting the body, and refuse a `t` more than 300 s from your clock. */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry and replay. Dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    event: "ping";
                    /** Format: uuid */
                    organization_id: string;
                    /**
                     * Format: date-time
                     * @description When the change was made; deliveries may arrive out of order.
                     */
                    emitted_at: string;
                    data: {
                        /**
                         * Format: uuid
                         * @description The subscription pinged.
                         */
                        subscription_id: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, like any other answer, a timeout or a refused connection: retried on the schedule of docs/webhooks.md. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    assetCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind. */
                "X-Service-Event": "asset.created";
                /** @description The delivery id (the envelope’s `id`). */
                "X-Service-Delivery-Id": string;
                /** @description Unix seconds when this attempt was signed. */
                "X-Service-Timestamp": string;
                /** @description `t=<timestamp>,v1=<hex>`: hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret; during a secret rotation one `v1=` per secret. Verify it (docs/webhooks.md, or `verifyWebhook` of the SDK) before trusting the body, and refuse a `t` more than 300 s from your clock. */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry and replay. Dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    event: "asset.created";
                    /** Format: uuid */
                    organization_id: string;
                    /**
                     * Format: date-time
                     * @description When the change was made; deliveries may arrive out of order.
                     */
                    emitted_at: string;
                    /** @description The asset record, with `source`. */
                    data: {
                        /** Format: uuid */
                        id: string;
                        title: string;
                        asset_type: null | string;
                        client: null | string;
                        product: null | string;
                        tags: string[];
                        source_url: null | string;
                        created_by_ai: boolean;
                        /** @description Read from the bytes, never from a header or file name. */
                        mime_type: string;
                        width: number;
                        height: number;
                        byte_size: number;
                        /** @description SHA-256 of the image bytes; two pushes of the same bytes are one asset. */
                        sha256: string;
                        /** @description Signed URL of a WebP thumbnail (longest side 512 px), valid about 24 hours: fetch it again rather than storing it. Valid from the push’s answer on: a thumbnail not made yet is made when first asked for. 404 `thumbnail_unavailable` when `thumbnail_status` is `failed`. */
                        thumbnail_url: string;
                        /** Format: date-time */
                        thumbnail_expires_at: string;
                        /** @description `available`: `thumbnail_url` serves the thumbnail (made after the push answered, in the background or when first asked for). `failed`: the image passed the push’s checks (its header, and its structure whole to its end) but its pixel data could not be decoded (corrupt); the asset and its original stay as pushed. */
                        thumbnail_status: "available" | "failed";
                        /** @description Why the thumbnail failed; null unless `thumbnail_status` is `failed`. */
                        thumbnail_failure: null | string;
                        /** @description Signed URL of the original image, valid as long as thumbnail_url. */
                        original_url: string;
                        /** @description A signed URL for every preset (GET /api/v1/presets), by name, valid as long as thumbnail_url: `thumbnail` and `original` (the same links as `thumbnail_url` and `original_url`), then the organization’s own presets, each the current version’s rendition in the preset’s size and format (made when first fetched). In the trash, the built-ins only. */
                        renditions: {
                            thumbnail: string;
                            original: string;
                        } & {
                            [key: string]: string;
                        };
                        /** @description 1 at the push, one more for each new file (POST /api/v1/assets/{id}/versions, or a push with a known `external_id`). The file facts above are the current version’s. */
                        version: number;
                        /** @description The asset’s id in the system it came from (`figma:KEY:1-23`, `path:brand/logo.svg`); unique among the organization’s live assets. */
                        external_id: null | string;
                        /** @description Manual collections holding the asset. */
                        collections: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                        }[];
                        /** @description Up to 5 live assets whose picture is nearly the same (perceptual hash within `NEAR_DUPLICATE_DISTANCE`, 6 by default), closest first. Null while the current file’s hash is being made (after the push answers); empty when there are none, the image cannot be decoded, or it is too plain to compare (one flat colour: fewer than 8 of the hash’s 64 comparisons of neighbours differ). */
                        near_duplicates: null | {
                            /** Format: uuid */
                            asset_id: string;
                            /** @description Bits that differ between the two 64-bit perceptual hashes; 0 is the same picture. */
                            distance: number;
                        }[];
                        /** @description Up to 6 dominant colours of the current file, most used first; transparent pixels do not count. Null until made (after the push answers); empty when the image has no opaque pixel or cannot be decoded. */
                        colors: null | {
                            /** @description Lowercase `#rrggbb`. */
                            hex: string;
                            /** @description Its share of the opaque pixels. */
                            share: number;
                            /**
                             * @description The nearest of the named colours (GET /api/v1/colors), in CIELAB.
                             * @enum {string}
                             */
                            name: "red" | "orange" | "yellow" | "green" | "teal" | "blue" | "purple" | "pink" | "brown" | "black" | "gray" | "white";
                        }[];
                        /** @description What the current file’s embedded EXIF, IPTC and XMP say. Null until read (after the push answers). */
                        metadata: null | {
                            /** @description EXIF orientation; `width` and `height` are the sides after it. */
                            orientation: null | number;
                            /** @description When the picture was taken, as the file says (ISO 8601; with an offset only when the file gives one). */
                            captured_at: null | string;
                            camera_make: null | string;
                            camera_model: null | string;
                            lens: null | string;
                            creator: null | string;
                            copyright: null | string;
                            /** @description The credit line (IPTC Credit). */
                            credit: null | string;
                            title: null | string;
                            description: null | string;
                            /** @description IPTC and XMP keywords. */
                            keywords: string[];
                            /** @description Where the picture was taken; null unless the instance sets `EXPOSE_GPS=true`. */
                            gps: null | {
                                latitude: number;
                                longitude: number;
                                altitude: null | number;
                            };
                        };
                        /** @description What the current file says of who or what made it, whatever `created_by_ai` says. Null until read (after the push answers). */
                        provenance: null | {
                            /**
                             * @description The origin the file declares, in its XMP (IPTC digital source type) or its C2PA manifest’s actions: `ai` (`trainedAlgorithmicMedia`), `ai_composite` (`compositeWithTrainedAlgorithmicMedia`), `capture` (`digitalCapture` and other captures from real life), `edited` (any other type: made or changed by people or non-AI software; or a valid manifest recording edits), `unknown` (none). When the file says several things, the one furthest towards AI wins; an invalid manifest’s claims count only when they say AI.
                             * @enum {string}
                             */
                            source: "ai" | "ai_composite" | "capture" | "edited" | "unknown";
                            /** @description The file’s C2PA manifest; null when it has none of its own (a manifest stored elsewhere is not fetched). */
                            c2pa: null | {
                                /** @description The tool that made the manifest. */
                                claim_generator: null | string;
                                /** @description The signing certificate’s subject (organization). */
                                signed_by: null | string;
                                /** @description Whether the manifest’s signature and hashes check out; false too when it cannot be read (then the other two are null). Not a statement of trust: no trust list is configured. */
                                valid: boolean;
                            };
                        };
                        /** @description Who pushed it: an API key (`kind: "key"`, the key’s name) or a signed-in user (`kind: "user"`, their display name), as it was at the push; a Figma import’s assets name whoever started the import. Null for assets pushed with a key before this was recorded. */
                        created_by: null | {
                            kind: "key" | "user";
                            /** @description The API key’s name, or the user’s display name (their email when they gave none), at the time. */
                            name: string;
                        };
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** @description Where the asset came from: `api` (a push with an API key), `upload` (the web app’s push or upload), or `figma` (an import: `POST /api/v1/imports`), with the Figma file, the node and the import. */
                        source: {
                            /** @constant */
                            kind: "api";
                        } | {
                            /** @constant */
                            kind: "upload";
                        } | {
                            /** @constant */
                            kind: "figma";
                            /** @description The Figma file. */
                            file_key: string;
                            /** @description The node, as Figma’s API writes it (`1:2`). */
                            node_id: string;
                            /**
                             * Format: uuid
                             * @description The import that made the asset.
                             */
                            import_id: string;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, like any other answer, a timeout or a refused connection: retried on the schedule of docs/webhooks.md. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    assetUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind. */
                "X-Service-Event": "asset.updated";
                /** @description The delivery id (the envelope’s `id`). */
                "X-Service-Delivery-Id": string;
                /** @description Unix seconds when this attempt was signed. */
                "X-Service-Timestamp": string;
                /** @description `t=<timestamp>,v1=<hex>`: hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret; during a secret rotation one `v1=` per secret. Verify it (docs/webhooks.md, or `verifyWebhook` of the SDK) before trusting the body, and refuse a `t` more than 300 s from your clock. */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry and replay. Dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    event: "asset.updated";
                    /** Format: uuid */
                    organization_id: string;
                    /**
                     * Format: date-time
                     * @description When the change was made; deliveries may arrive out of order.
                     */
                    emitted_at: string;
                    /** @description The asset record after the change, with `changes`. */
                    data: {
                        /** Format: uuid */
                        id: string;
                        title: string;
                        asset_type: null | string;
                        client: null | string;
                        product: null | string;
                        tags: string[];
                        source_url: null | string;
                        created_by_ai: boolean;
                        /** @description Read from the bytes, never from a header or file name. */
                        mime_type: string;
                        width: number;
                        height: number;
                        byte_size: number;
                        /** @description SHA-256 of the image bytes; two pushes of the same bytes are one asset. */
                        sha256: string;
                        /** @description Signed URL of a WebP thumbnail (longest side 512 px), valid about 24 hours: fetch it again rather than storing it. Valid from the push’s answer on: a thumbnail not made yet is made when first asked for. 404 `thumbnail_unavailable` when `thumbnail_status` is `failed`. */
                        thumbnail_url: string;
                        /** Format: date-time */
                        thumbnail_expires_at: string;
                        /** @description `available`: `thumbnail_url` serves the thumbnail (made after the push answered, in the background or when first asked for). `failed`: the image passed the push’s checks (its header, and its structure whole to its end) but its pixel data could not be decoded (corrupt); the asset and its original stay as pushed. */
                        thumbnail_status: "available" | "failed";
                        /** @description Why the thumbnail failed; null unless `thumbnail_status` is `failed`. */
                        thumbnail_failure: null | string;
                        /** @description Signed URL of the original image, valid as long as thumbnail_url. */
                        original_url: string;
                        /** @description A signed URL for every preset (GET /api/v1/presets), by name, valid as long as thumbnail_url: `thumbnail` and `original` (the same links as `thumbnail_url` and `original_url`), then the organization’s own presets, each the current version’s rendition in the preset’s size and format (made when first fetched). In the trash, the built-ins only. */
                        renditions: {
                            thumbnail: string;
                            original: string;
                        } & {
                            [key: string]: string;
                        };
                        /** @description 1 at the push, one more for each new file (POST /api/v1/assets/{id}/versions, or a push with a known `external_id`). The file facts above are the current version’s. */
                        version: number;
                        /** @description The asset’s id in the system it came from (`figma:KEY:1-23`, `path:brand/logo.svg`); unique among the organization’s live assets. */
                        external_id: null | string;
                        /** @description Manual collections holding the asset. */
                        collections: {
                            /** Format: uuid */
                            id: string;
                            name: string;
                        }[];
                        /** @description Up to 5 live assets whose picture is nearly the same (perceptual hash within `NEAR_DUPLICATE_DISTANCE`, 6 by default), closest first. Null while the current file’s hash is being made (after the push answers); empty when there are none, the image cannot be decoded, or it is too plain to compare (one flat colour: fewer than 8 of the hash’s 64 comparisons of neighbours differ). */
                        near_duplicates: null | {
                            /** Format: uuid */
                            asset_id: string;
                            /** @description Bits that differ between the two 64-bit perceptual hashes; 0 is the same picture. */
                            distance: number;
                        }[];
                        /** @description Up to 6 dominant colours of the current file, most used first; transparent pixels do not count. Null until made (after the push answers); empty when the image has no opaque pixel or cannot be decoded. */
                        colors: null | {
                            /** @description Lowercase `#rrggbb`. */
                            hex: string;
                            /** @description Its share of the opaque pixels. */
                            share: number;
                            /**
                             * @description The nearest of the named colours (GET /api/v1/colors), in CIELAB.
                             * @enum {string}
                             */
                            name: "red" | "orange" | "yellow" | "green" | "teal" | "blue" | "purple" | "pink" | "brown" | "black" | "gray" | "white";
                        }[];
                        /** @description What the current file’s embedded EXIF, IPTC and XMP say. Null until read (after the push answers). */
                        metadata: null | {
                            /** @description EXIF orientation; `width` and `height` are the sides after it. */
                            orientation: null | number;
                            /** @description When the picture was taken, as the file says (ISO 8601; with an offset only when the file gives one). */
                            captured_at: null | string;
                            camera_make: null | string;
                            camera_model: null | string;
                            lens: null | string;
                            creator: null | string;
                            copyright: null | string;
                            /** @description The credit line (IPTC Credit). */
                            credit: null | string;
                            title: null | string;
                            description: null | string;
                            /** @description IPTC and XMP keywords. */
                            keywords: string[];
                            /** @description Where the picture was taken; null unless the instance sets `EXPOSE_GPS=true`. */
                            gps: null | {
                                latitude: number;
                                longitude: number;
                                altitude: null | number;
                            };
                        };
                        /** @description What the current file says of who or what made it, whatever `created_by_ai` says. Null until read (after the push answers). */
                        provenance: null | {
                            /**
                             * @description The origin the file declares, in its XMP (IPTC digital source type) or its C2PA manifest’s actions: `ai` (`trainedAlgorithmicMedia`), `ai_composite` (`compositeWithTrainedAlgorithmicMedia`), `capture` (`digitalCapture` and other captures from real life), `edited` (any other type: made or changed by people or non-AI software; or a valid manifest recording edits), `unknown` (none). When the file says several things, the one furthest towards AI wins; an invalid manifest’s claims count only when they say AI.
                             * @enum {string}
                             */
                            source: "ai" | "ai_composite" | "capture" | "edited" | "unknown";
                            /** @description The file’s C2PA manifest; null when it has none of its own (a manifest stored elsewhere is not fetched). */
                            c2pa: null | {
                                /** @description The tool that made the manifest. */
                                claim_generator: null | string;
                                /** @description The signing certificate’s subject (organization). */
                                signed_by: null | string;
                                /** @description Whether the manifest’s signature and hashes check out; false too when it cannot be read (then the other two are null). Not a statement of trust: no trust list is configured. */
                                valid: boolean;
                            };
                        };
                        /** @description Who pushed it: an API key (`kind: "key"`, the key’s name) or a signed-in user (`kind: "user"`, their display name), as it was at the push; a Figma import’s assets name whoever started the import. Null for assets pushed with a key before this was recorded. */
                        created_by: null | {
                            kind: "key" | "user";
                            /** @description The API key’s name, or the user’s display name (their email when they gave none), at the time. */
                            name: string;
                        };
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** @description The fields of the record the change touched, by their names here (`tags`, `title`…); `file` when a new version replaced the file. */
                        changes: string[];
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, like any other answer, a timeout or a refused connection: retried on the schedule of docs/webhooks.md. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    assetDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind. */
                "X-Service-Event": "asset.deleted";
                /** @description The delivery id (the envelope’s `id`). */
                "X-Service-Delivery-Id": string;
                /** @description Unix seconds when this attempt was signed. */
                "X-Service-Timestamp": string;
                /** @description `t=<timestamp>,v1=<hex>`: hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret; during a secret rotation one `v1=` per secret. Verify it (docs/webhooks.md, or `verifyWebhook` of the SDK) before trusting the body, and refuse a `t` more than 300 s from your clock. */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry and replay. Dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    event: "asset.deleted";
                    /** Format: uuid */
                    organization_id: string;
                    /**
                     * Format: date-time
                     * @description When the change was made; deliveries may arrive out of order.
                     */
                    emitted_at: string;
                    data: {
                        /**
                         * Format: uuid
                         * @description The deleted asset.
                         */
                        id: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, like any other answer, a timeout or a refused connection: retried on the schedule of docs/webhooks.md. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    assetRestoredEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind. */
                "X-Service-Event": "asset.restored";
                /** @description The delivery id (the envelope’s `id`). */
                "X-Service-Delivery-Id": string;
                /** @description Unix seconds when this attempt was signed. */
                "X-Service-Timestamp": string;
                /** @description `t=<timestamp>,v1=<hex>`: hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret; during a secret rotation one `v1=` per secret. Verify it (docs/webhooks.md, or `verifyWebhook` of the SDK) before trusting the body, and refuse a `t` more than 300 s from your clock. */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry and replay. Dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    event: "asset.restored";
                    /** Format: uuid */
                    organization_id: string;
                    /**
                     * Format: date-time
                     * @description When the change was made; deliveries may arrive out of order.
                     */
                    emitted_at: string;
                    data: components["schemas"]["Asset"];
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, like any other answer, a timeout or a refused connection: retried on the schedule of docs/webhooks.md. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    collectionCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind. */
                "X-Service-Event": "collection.created";
                /** @description The delivery id (the envelope’s `id`). */
                "X-Service-Delivery-Id": string;
                /** @description Unix seconds when this attempt was signed. */
                "X-Service-Timestamp": string;
                /** @description `t=<timestamp>,v1=<hex>`: hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret; during a secret rotation one `v1=` per secret. Verify it (docs/webhooks.md, or `verifyWebhook` of the SDK) before trusting the body, and refuse a `t` more than 300 s from your clock. */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry and replay. Dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    event: "collection.created";
                    /** Format: uuid */
                    organization_id: string;
                    /**
                     * Format: date-time
                     * @description When the change was made; deliveries may arrive out of order.
                     */
                    emitted_at: string;
                    data: components["schemas"]["Collection"];
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, like any other answer, a timeout or a refused connection: retried on the schedule of docs/webhooks.md. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    collectionSharedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind. */
                "X-Service-Event": "collection.shared";
                /** @description The delivery id (the envelope’s `id`). */
                "X-Service-Delivery-Id": string;
                /** @description Unix seconds when this attempt was signed. */
                "X-Service-Timestamp": string;
                /** @description `t=<timestamp>,v1=<hex>`: hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret; during a secret rotation one `v1=` per secret. Verify it (docs/webhooks.md, or `verifyWebhook` of the SDK) before trusting the body, and refuse a `t` more than 300 s from your clock. */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry and replay. Dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    event: "collection.shared";
                    /** Format: uuid */
                    organization_id: string;
                    /**
                     * Format: date-time
                     * @description When the change was made; deliveries may arrive out of order.
                     */
                    emitted_at: string;
                    data: {
                        collection: components["schemas"]["Collection"];
                        /**
                         * Format: uri
                         * @description The public link.
                         */
                        share_url: string;
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, like any other answer, a timeout or a refused connection: retried on the schedule of docs/webhooks.md. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    memberInvitedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind. */
                "X-Service-Event": "member.invited";
                /** @description The delivery id (the envelope’s `id`). */
                "X-Service-Delivery-Id": string;
                /** @description Unix seconds when this attempt was signed. */
                "X-Service-Timestamp": string;
                /** @description `t=<timestamp>,v1=<hex>`: hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret; during a secret rotation one `v1=` per secret. Verify it (docs/webhooks.md, or `verifyWebhook` of the SDK) before trusting the body, and refuse a `t` more than 300 s from your clock. */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry and replay. Dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    event: "member.invited";
                    /** Format: uuid */
                    organization_id: string;
                    /**
                     * Format: date-time
                     * @description When the change was made; deliveries may arrive out of order.
                     */
                    emitted_at: string;
                    data: {
                        /** Format: email */
                        email: string;
                        /** @enum {string} */
                        role: "owner" | "admin" | "member";
                        invited_by: {
                            /** Format: uuid */
                            user_id: string;
                            /** Format: email */
                            email: string;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, like any other answer, a timeout or a refused connection: retried on the schedule of docs/webhooks.md. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    memberJoinedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event kind. */
                "X-Service-Event": "member.joined";
                /** @description The delivery id (the envelope’s `id`). */
                "X-Service-Delivery-Id": string;
                /** @description Unix seconds when this attempt was signed. */
                "X-Service-Timestamp": string;
                /** @description `t=<timestamp>,v1=<hex>`: hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret; during a secret rotation one `v1=` per secret. Verify it (docs/webhooks.md, or `verifyWebhook` of the SDK) before trusting the body, and refuse a `t` more than 300 s from your clock. */
                "X-Service-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The delivery id: the same on every retry and replay. Dedupe on it.
                     */
                    id: string;
                    /** @constant */
                    event: "member.joined";
                    /** Format: uuid */
                    organization_id: string;
                    /**
                     * Format: date-time
                     * @description When the change was made; deliveries may arrive out of order.
                     */
                    emitted_at: string;
                    data: {
                        /** Format: uuid */
                        user_id: string;
                        /** Format: email */
                        email: string;
                        /** @enum {string} */
                        role: "owner" | "admin" | "member";
                    };
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A failed attempt, like any other answer, a timeout or a refused connection: retried on the schedule of docs/webhooks.md. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
