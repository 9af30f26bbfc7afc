# ChemFlow: the portal and POST /mcp in one Node.js process (npm start). See README "Deployment with Docker".

# --- build: install every dependency, generate the Prisma clients (postinstall), build the web app ---
FROM node:20-bookworm-slim AS build
WORKDIR /app
# Only used when better-sqlite3 has no prebuilt binary for the platform and compiles from source.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# The whole tree is needed before `npm ci`: its postinstall generates the Prisma clients from prisma/.
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npm ci
# The same build `npm start` would otherwise run on first start, with its source stamp, so the
# container starts serving at once.
RUN npm run build
RUN npm prune --omit=dev

# --- run: the built tree, as the unprivileged "node" user ---
FROM node:20-bookworm-slim
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
# Loopback plain HTTP is allowed even with REQUIRE_HTTPS=1, so the check needs no certificate.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["npm", "start"]
