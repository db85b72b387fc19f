# Storefront API on the official Bun image (Debian based, ships a non-root `bun` user, uid 1000).
#   docker build -t storefront-api .
#   docker run -d --name storefront --stop-timeout 20 -p 3443:3443 -p 3080:3080 -v storefront-data:/data storefront-api
# Behind Caddy with automatic HTTPS: compose.yaml. Migrations (drizzle/) are applied by the app
# itself at start; drizzle-kit is not needed here. scripts/check-image.sh reproduces the install
# and start steps below without a Docker daemon.
#
# Stopping: SIGTERM drains in-flight requests for up to SHUTDOWN_TIMEOUT_MS (10 s) and then gives
# webhook sends up to 5 s more, so the worst case is ~15 s: more than `docker stop`'s default 10 s
# before SIGKILL. Use `--stop-timeout 20` (`stop_grace_period: 20s` in compose), or lower
# SHUTDOWN_TIMEOUT_MS. A SIGKILL loses no acknowledged order (commits are synced), only the drain.

# The Bun version the project is developed and tested with; bump it with bun.lock.
ARG BUN_VERSION=1.4.5

FROM oven/bun:${BUN_VERSION} AS deps
WORKDIR /app
COPY package.json bun.lock ./
# --omit=peer: @elysiajs/openapi's peer dependency on TypeScript (only for its type-reading mode,
# unused here) would otherwise pull TypeScript 7 and its native binary, plus @types/bun:
# 119 → 77 MB of node_modules. The peers the service does run on (@sinclair/typebox, file-type,
# openapi-types) are declared as dependencies in package.json.
RUN bun install --frozen-lockfile --production --omit=peer

FROM oven/bun:${BUN_VERSION}
ARG BUN_VERSION
LABEL org.opencontainers.image.title="storefront-api" \
      org.opencontainers.image.description="Storefront API: a multi-store commerce API on Bun, Elysia and SQLite" \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.base.name="docker.io/oven/bun:${BUN_VERSION}"
WORKDIR /app
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3443 \
    HTTP_PORT=3080
# glibc gives each thread that allocates its own arena, and libvips' threads (picture uploads)
# keep what they freed in theirs: two arenas held the upload and mixed-workload phases of
# bench/memory.ts 45–65 MB lower (docs/decisions/025).
ENV MALLOC_ARENA_MAX=2
COPY --from=deps /app/node_modules ./node_modules
COPY package.json bun.lock ./
COPY src ./src
COPY drizzle ./drizzle
# The volume's mount point must belong to the runtime user: the database, the generated
# self-signed certificate (DATA_DIR/tls), the secret key and the backups live there (0700).
RUN mkdir -p /data && chown bun:bun /data && chmod 700 /data
USER bun
VOLUME /data
EXPOSE 3443 3080
STOPSIGNAL SIGTERM
# No curl in the image: a one-line Bun fetch. The self-signed certificate is not verified here
# (it is the container's own endpoint); with TRUST_PROXY=1 the port speaks plain HTTP.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["bun", "-e", "const s=['1','true','yes'].includes(process.env.TRUST_PROXY??'')?'http':'https';fetch(s+'://127.0.0.1:'+(process.env.PORT||3443)+'/health',{tls:{rejectUnauthorized:false}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["bun", "src/index.ts"]
