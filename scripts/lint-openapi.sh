#!/bin/sh
# Lints the committed OpenAPI documents (openapi/v1.json, and the app's internal openapi/app.json) with Redocly's
# recommended rules plus redocly.yaml; exits non-zero on errors.
# No telemetry and no update check: both would reach the internet.
set -eu
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_NOTIFICATIONS=true REDOCLY_SUPPRESS_UPDATE_NOTICE=true
exec node_modules/.bin/redocly lint --config=redocly.yaml openapi/v1.json openapi/app.json "$@"
