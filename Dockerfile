# syntax=docker/dockerfile:1
# The bot's image (docs/deployment.md#the-container-image): built in one stage, run from a slim one that
# holds only the production dependencies and dist/, as an unprivileged user. test/container.test.ts
# builds this runtime layout in a directory and starts its CMD.
# A minor release of the Node major of .nvmrc: builds repeat, and Renovate proposes the next minor (renovate.json).
ARG NODE_IMAGE=node:22.23-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY scripts/node.sh ./scripts/
# SQLite's file, for a single instance: mount a volume here (docker run -v). Not a VOLUME, which would give
# every replica on PostgreSQL (compose.yaml) an anonymous volume it never uses.
RUN mkdir /data && chown node:node /data
ENV DATABASE_PATH=/data/waybill-bot.sqlite
# The probes and /metrics, in either mode; HTTP mode also listens on PORT.
ENV HEALTH_PORT=3001
EXPOSE 3000 3001
USER node
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.HEALTH_PORT+'/livez').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node with the options of `npm start` (scripts/node.sh, which execs it): SIGTERM reaches node itself, and it
# stops gracefully. Give it WAYBILL_TIMEOUT_MS + 10 s to do so (docker stop -t, compose's stop_grace_period).
CMD ["sh", "scripts/node.sh", "dist/app.js"]
