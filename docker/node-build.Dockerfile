# syntax=docker/dockerfile:1.7
# Builds the pnpm workspace once (install + front-end builds); the api and the static web images
# below start FROM this stage's output. Build context: the repository root.
#   docker build -f docker/node-build.Dockerfile --target api .
#   docker build -f docker/node-build.Dockerfile --target web --build-arg APP=remote-mail .
ARG NODE_IMAGE=node:24-bookworm-slim
ARG NGINX_IMAGE=nginx:1.27-alpine

FROM ${NODE_IMAGE} AS workspace
# pnpm pinned like the repository (corepack does not work against every registry).
RUN npm install -g pnpm@10.34.8 --no-audit --no-fund --loglevel=error
WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile --prefer-offline

FROM workspace AS build-web
ARG APP=host
# The version a remote shows in its pages (remote-haraka reads it at build time, issue 19); empty:
# its package.json version.
ARG QC_REMOTE_VERSION=
RUN test -d "$APP" || { echo "no such app folder: $APP" >&2; exit 1; } \
 && QC_REMOTE_VERSION="$QC_REMOTE_VERSION" pnpm --filter "./$APP" run build \
 && test -f "$APP/dist/index.html" -o -f "$APP/dist/mf-manifest.json"

# ---- api: Fastify, SQLite or PostgreSQL (QC_DATABASE_URL) --------------------------------------
FROM workspace AS api
ENV NODE_ENV=production QC_HOST=0.0.0.0 QC_PORT=8080 QC_DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.QC_PORT||8080)+'/api/health/').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["api/node_modules/.bin/tsx", "api/src/main.ts"]

# ---- web: one static front-end app (host or a remote) behind nginx ------------------------------
FROM ${NGINX_IMAGE} AS web
ARG APP=host
ARG NGINX_CONF=remote
COPY --from=build-web /app/${APP}/dist /usr/share/nginx/html
# The official image renders /etc/nginx/templates/*.template with envsubst at start-up.
COPY docker/nginx/${NGINX_CONF}.conf.template /etc/nginx/templates/default.conf.template
EXPOSE 80
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=5 \
  CMD wget -q --spider http://127.0.0.1/healthz || exit 1
