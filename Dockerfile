# Mailroom server image: `docker build -t mailroom .`, then
#   docker run -p 3000:3000 -v mailroom-data:/data -e API_TOKEN=change-me -e APP_URL=http://localhost:3000 mailroom
# Node 20 and 22 are supported (README, Set-up): --build-arg NODE_VERSION=20 picks the other.
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS build
# better-sqlite3 compiles from source when no prebuilt binary fits
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.base.json ./
COPY scripts ./scripts
COPY packages ./packages
# npm ci runs `prepare` (tsc -b, then the one-file bundle packages/server/dist/mailroom.mjs); then the dev tools go
RUN npm ci --no-audit --no-fund \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf packages/*/src packages/*/test packages/*/tsconfig*.json

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/mailroom.db \
    OUTBOX_DIR=/data/outbox
WORKDIR /app
COPY --from=build /app /app
# owned by node, so named volumes mounted at /data or /data/outbox start writable
RUN mkdir -p /data/outbox && chown -R node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM itself: `docker stop` ends it gracefully (exit 0)
# the heap settings of `npm start` (package.json "config.node_flags"; README, "Memory"), its two malloc arenas and
# its fixed mmap threshold
ENV MALLOC_ARENA_MAX=2
ENV MALLOC_MMAP_THRESHOLD_=524288
ENTRYPOINT ["node", "--max-semi-space-size=4", "--heap-growing-percent=100", "--v8-pool-size=0", "--expose-gc", "packages/server/dist/mailroom.mjs"]
CMD ["serve"]
