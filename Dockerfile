# The missionweave Group Authority image: `docker compose up` builds it (docker-compose.yml).
# Stage 1 installs every dependency and runs `npm run build` (TypeScript into dist/, and whatever
# else the build script produces there, such as the console's static files; the benchmarks and
# the fault suite of tools/ into dist-tools/, which no stage copies); stage 2 keeps only
# production dependencies, dist/, schemas/ and migrations/, and runs as the unprivileged `node`
# user. Debian (glibc), not Alpine: the embedded PostgreSQL binaries that `missionweave start`
# uses without DATABASE_URL are glibc builds.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# dist/ whole: the compiled server, CLI, crypto worker and the console's static files.
COPY --from=build /app/dist ./dist
# Read at run time: the JSON Schemas every document is validated against, and the SQL migrations
# applied on start (src/protocol/schemas/files.ts, src/store/migrate.ts).
COPY schemas ./schemas
COPY migrations ./migrations
# The operator folder (keys, certificate, configuration) lives in a volume mounted here; made
# now and owned by `node` so that a new named volume starts writable by the unprivileged user.
RUN mkdir -p /deploy && chown node:node /deploy
USER node
EXPOSE 8443
# /ready answers 200 once the node reads its database. Node makes the request (no curl in the
# image); MW_HEALTHCHECK_URL names another port, as docker-compose.yml does for node-b.
HEALTHCHECK --interval=10s --timeout=10s --start-period=30s --retries=3 \
  CMD ["node", "dist/cli/healthcheck.js"]
# The node flags of a serving process (SERVE_NODE_FLAGS in src/cli/heapTuning.ts).
ENTRYPOINT ["node", "--max-semi-space-size=64", "dist/cli/main.js"]
CMD ["start", "--dir", "/deploy", "--host", "0.0.0.0"]
