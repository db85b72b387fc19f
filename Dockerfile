# Storefront API on the official Bun image (Debian based, ships a non-root `bun` user, uid 1000).
#   docker build -t storefront-api .
#   docker run -d --name storefront -p 3443:3443 -p 3080:3080 -v storefront-data:/data storefront-api
# Migrations (drizzle/) are applied by the app itself at start; drizzle-kit is not needed here.

FROM oven/bun:1 AS deps
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile --production

FROM oven/bun:1
WORKDIR /app
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3443 \
    HTTP_PORT=3080
COPY --from=deps /app/node_modules ./node_modules
COPY package.json bun.lock ./
COPY src ./src
COPY drizzle ./drizzle
# The volume's mount point must belong to the runtime user: the database, the generated
# self-signed certificate (DATA_DIR/tls) and the secret key live there.
RUN mkdir -p /data && chown bun:bun /data
USER bun
VOLUME /data
EXPOSE 3443 3080
# No curl in the image: a one-line Bun fetch. The self-signed certificate is not verified here
# (it is the container's own endpoint); with TRUST_PROXY=1 the port speaks plain HTTP.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["bun", "-e", "const s=['1','true','yes'].includes(process.env.TRUST_PROXY??'')?'http':'https';fetch(s+'://127.0.0.1:'+(process.env.PORT||3443)+'/health',{tls:{rejectUnauthorized:false}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["bun", "src/index.ts"]
