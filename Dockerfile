# AdPilot in one image: the same image runs the API (ROLE=api) or a worker (ROLE=worker); see compose.yaml and
# ADR 0083. Build: docker build -t adpilot .

# ── build: every dependency, then the SPA and the server bundle ──
FROM node:24-bookworm-slim AS build
WORKDIR /app
# The manifests first, so the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json .npmrc ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY packages/db/package.json packages/db/
COPY packages/engine/package.json packages/engine/
COPY packages/meta/package.json packages/meta/
COPY packages/meta-sandbox/package.json packages/meta-sandbox/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ── runtime: production dependencies and the built assets only ──
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/.npmrc ./
COPY --from=build /app/apps/server/package.json apps/server/
COPY --from=build /app/apps/web/package.json apps/web/
COPY --from=build /app/packages/contracts/package.json packages/contracts/
COPY --from=build /app/packages/db/package.json packages/db/
COPY --from=build /app/packages/engine/package.json packages/engine/
COPY --from=build /app/packages/meta/package.json packages/meta/
COPY --from=build /app/packages/meta-sandbox/package.json packages/meta-sandbox/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# The bundle (workspace packages inlined), the SPA it serves, and the migrations it applies at start; each found
# where the bundle looks for it, relative to apps/server/dist/main.js.
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/packages/db/migrations packages/db/migrations
# The embedded database, the generated secrets and the sandbox's state live here when used: a volume in compose.yaml.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Readiness: the database, the queue and the migrations (GET /api/ready). A worker answers it on HEALTH_PORT.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.HEALTH_PORT || process.env.PORT}/api/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The built server (the `serve` script; `npm start` would build first, which needs the dev dependencies).
CMD ["npm", "run", "serve"]
